import { textBlocks } from "~/lib/accessibility";

/** A text of the statement: paragraphs and lists, rendered as text (never HTML). */
export function StatementText({ text }: { text: string }) {
  return (
    <div className="space-y-3 text-slate-700 dark:text-slate-300">
      {textBlocks(text).map((block, index) =>
        block.kind === "paragraph" ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: blocks of one fixed text, in order
          <p key={index} className="whitespace-pre-line">
            {block.text}
          </p>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: blocks of one fixed text, in order
          <ul key={index} className="list-disc space-y-2 pl-5">
            {block.items.map((item, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: items of one fixed list, in order
              <li key={i}>{item}</li>
            ))}
          </ul>
        ),
      )}
    </div>
  );
}

/** One titled section of the statement. */
export function StatementSection({ id, title, text }: { id: string; title: string; text: string }) {
  return (
    <section aria-labelledby={`${id}-titel`} className="scroll-mt-24 space-y-3" id={id}>
      <h2 id={`${id}-titel`} className="text-xl font-semibold text-slate-900 dark:text-white">
        {title}
      </h2>
      <StatementText text={text} />
    </section>
  );
}
