import { useFetcher, useLocation } from "react-router";
import { CloseIcon } from "~/components/ui/icons";
import { CarriedReferrer } from "./attribution-fields";

/** The configurable info banner; closing is remembered per text (cookie), so a new text shows again. */
export function InfoBanner({ text, bannerKey }: { text: string; bannerKey: string }) {
  const fetcher = useFetcher();
  const location = useLocation();
  if (fetcher.state !== "idle" || fetcher.data) return null;
  return (
    <section aria-label="Hinweis" className="bg-indigo-600 text-white dark:bg-indigo-700">
      <div className="mx-auto flex max-w-6xl items-start justify-between gap-3 px-4 py-1.5 text-sm sm:px-6 sm:py-2.5">
        <p className="pt-1">{text}</p>
        <fetcher.Form
          method="post"
          action="/preferences/banner"
          onSubmit={(event) => {
            event.preventDefault();
            fetcher.submit(
              { key: bannerKey, js: "1" },
              { method: "post", action: "/preferences/banner" },
            );
          }}
        >
          <input type="hidden" name="key" value={bannerKey} />
          <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
          <CarriedReferrer />
          <button
            type="submit"
            className="rounded-md px-2 py-1 font-semibold hover:bg-white/15 focus-visible:outline-white"
            aria-label="Hinweis schließen"
          >
            <CloseIcon size={16} />
          </button>
        </fetcher.Form>
      </div>
    </section>
  );
}
