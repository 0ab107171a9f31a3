// Placeholder: built by issue #5.
export default function Placeholder() {
  return (
    <main className="mx-auto max-w-3xl p-8">
      <p>Diese Seite wird gerade gebaut.</p>
    </main>
  );
}
