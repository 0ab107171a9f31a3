// MSW for the external services (Cal.com, Anthropic), in its own module: only the files that mock
// them pay for loading MSW (about a second per file on a loaded machine; most files never need it).
import { setupServer } from "msw/node";
import { anthropicHandlers } from "../mocks/anthropic";
import { calcomHandlers } from "../mocks/calcom";

/** MSW for the external services; requests to the test server itself pass through. */
export function setupMocks() {
  return setupServer(...calcomHandlers, ...anthropicHandlers);
}
export const mswListenOptions = {
  onUnhandledFrame({ frame, defaults }: { frame: unknown; defaults: { error: () => void } }) {
    const request = (frame as { data?: { request?: Request } }).data?.request;
    const host = request ? new URL(request.url).hostname : "";
    if (host === "127.0.0.1" || host === "localhost") return;
    defaults.error();
  },
};
