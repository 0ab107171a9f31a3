import type { RequestJson } from "~/lib/request-json";

export function CompanySection({ request }: { request: RequestJson }) {
  return (
    <dl className="grid gap-3 text-sm sm:grid-cols-2">
      <div>
        <dt className="font-medium text-slate-500 dark:text-slate-400">Name</dt>
        <dd>{request.name}</dd>
      </div>
      <div>
        <dt className="font-medium text-slate-500 dark:text-slate-400">E-Mail</dt>
        <dd>
          <a
            className="text-indigo-700 underline dark:text-indigo-300"
            href={`mailto:${request.email}`}
          >
            {request.email}
          </a>
        </dd>
      </div>
      <div>
        <dt className="font-medium text-slate-500 dark:text-slate-400">Telefon</dt>
        <dd>
          <a
            className="text-indigo-700 underline dark:text-indigo-300"
            href={`tel:${request.phone.replace(/[^\d+]/g, "")}`}
          >
            {request.phone}
          </a>
        </dd>
      </div>
      {request.affiliateCode ? (
        <div>
          <dt className="font-medium text-slate-500 dark:text-slate-400">Affiliate-Code</dt>
          <dd className="font-mono">{request.affiliateCode}</dd>
        </div>
      ) : null}
      <div className="sm:col-span-2">
        <dt className="font-medium text-slate-500 dark:text-slate-400">Unternehmen</dt>
        <dd className="whitespace-pre-wrap">{request.companyDescription}</dd>
      </div>
    </dl>
  );
}
