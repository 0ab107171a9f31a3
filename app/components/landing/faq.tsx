import { LandingSection } from "./landing-section";

const QUESTIONS: [string, string][] = [
  [
    "Was bekomme ich nach drei Tagen?",
    "Eine lauffähige Testversion deiner Idee: die wichtigsten Abläufe zum Durchklicken, im Browser erreichbar. Sie ist kein fertiges Produkt, zeigt aber, wie sich deine Software anfühlen wird.",
  ],
  [
    "Was kostet die Testversion?",
    "Die Testversion und die Demo sind für dich kostenlos und unverbindlich. Erst wenn du weitermachen möchtest, erstellen wir ein Angebot.",
  ],
  [
    "Wie genau muss meine Beschreibung sein?",
    "Ein paar Sätze reichen für den Anfang. Je konkreter du Zielgruppe und wichtigste Funktionen beschreibst, desto näher ist die Testversion an deiner Vorstellung.",
  ],
  [
    "Kann ich statt zu schreiben eine Sprachnachricht schicken?",
    "Ja. Nimm direkt im Formular eine Sprachnachricht auf – oder lade ohne JavaScript eine Audiodatei hoch.",
  ],
  [
    "Welche Dateien kann ich anhängen?",
    "Bilder (jpg, png, gif, webp, bmp) und Dokumente (pdf, Word, Excel, PowerPoint, csv) – standardmäßig bis zu 5 Dateien mit je 10 MB und insgesamt 50 MB.",
  ],
  [
    "Was passiert im Demo-Termin?",
    "Wir zeigen dir die Testversion, sammeln dein Feedback und besprechen Umfang, Zeitplan und Kosten der nächsten Ausbaustufe. Der Termin dauert etwa 30 Minuten.",
  ],
  [
    "Wem gehören Idee und Quellcode?",
    "Deine Idee bleibt deine Idee. Wir behandeln alle Angaben vertraulich, und mit Vertragsabschluss gehen die Rechte am Quellcode auf dich über.",
  ],
  [
    "Welche Technologien setzt ihr ein?",
    "Bewährte Web-Technologien wie TypeScript, React und Node.js – passend zu deinem Vorhaben, damit die Software später einfach erweitert werden kann.",
  ],
  [
    "Was passiert mit meinen Daten?",
    "Wir nutzen deine Angaben ausschließlich zur Bearbeitung deiner Anfrage. Details findest du in unserer Datenschutzerklärung.",
  ],
  [
    "Wie löse ich einen Affiliate-Code ein?",
    "Öffne einfach den Link mit deinem Code. Der Rabatt wird angezeigt, mit deiner Anfrage gespeichert und bei Vertragsabschluss verrechnet.",
  ],
];

/** Ten questions; native <details name> keeps one open at a time, also without JavaScript. */
export function Faq() {
  return (
    <LandingSection id="faq" title="Häufige Fragen" width="max-w-3xl">
      <div className="mt-6 divide-y divide-slate-200 rounded-xl border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
        {QUESTIONS.map(([q, a]) => (
          <details key={q} name="faq" className="group px-4 py-3">
            <summary className="cursor-pointer list-none rounded-md font-semibold text-slate-900 marker:hidden dark:text-white">
              <span className="flex items-center justify-between gap-4">
                {q}
                <span aria-hidden="true" className="transition-transform group-open:rotate-45">
                  +
                </span>
              </span>
            </summary>
            <p className="mt-2 text-slate-700 dark:text-slate-300">{a}</p>
          </details>
        ))}
      </div>
    </LandingSection>
  );
}
