// Placeholder: built by issue #4 (no-JS booking page).
export default function Placeholder() {
  return (
    <main className="mx-auto max-w-3xl p-8">
      <p>Diese Seite wird gerade gebaut.</p>
    </main>
  );
}
