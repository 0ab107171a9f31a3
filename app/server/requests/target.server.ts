import { formatRequestId } from "~/lib/format";

/** How the audit log names a request ("Anfrage #0012"): never personal data. */
export const requestTarget = (id: number) => `Anfrage #${formatRequestId(id)}`;
