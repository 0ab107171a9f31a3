import { z } from "zod";
import { clampedSetting } from "./setting-ranges";

/**
 * The accessibility statement (BFSG §14 with Anlage 3 Nr. 1; ADR 340): stored under
 * `accessibility` in the configuration, shown at /barrierefreiheit and linked from every visitor
 * page's footer and from /embed while `publish` is on. The three texts Anlage 3 Nr. 1 asks for
 * (the service, how to use it, how it meets the requirements) are `null` until an admin changes
 * them: null stands for the product's own description below. The optional texts are shown only
 * when set.
 */

export const ACCESSIBILITY_PATH = "/barrierefreiheit";
/** The admin list of the feedback sent from the statement page. */
export const ACCESSIBILITY_FEEDBACK_ADMIN_PATH = "/admin/settings/barrierefreiheit";

/** Anlage 3 Nr. 1 a–c: always on the page; null = the product's text below. */
export const ACCESSIBILITY_CORE_KEYS = ["service", "usage", "compliance"] as const;
/** Shown only when set (suggestions can be inserted in the settings card). */
export const ACCESSIBILITY_OPTIONAL_KEYS = [
  "limitations",
  "assessment",
  "contact",
  "authority",
  "arbitration",
] as const;
export type AccessibilityCoreKey = (typeof ACCESSIBILITY_CORE_KEYS)[number];
export type AccessibilityOptionalKey = (typeof ACCESSIBILITY_OPTIONAL_KEYS)[number];
export type AccessibilityTextKey = AccessibilityCoreKey | AccessibilityOptionalKey;

/** The headings of the page's sections (and the labels of the settings card's fields). */
export const ACCESSIBILITY_HEADINGS: Record<AccessibilityTextKey, string> = {
  service: "Was du hier tun kannst",
  usage: "So nutzt du die Seite – mit Tastatur, Screenreader und ohne JavaScript",
  compliance: "Wie die Seite die Anforderungen an die Barrierefreiheit erfüllt",
  limitations: "Bekannte Einschränkungen und Alternativen",
  assessment: "Wie und wann wir die Barrierefreiheit geprüft haben",
  contact: "Barrieren melden",
  authority: "Zuständige Marktüberwachungsbehörde",
  arbitration: "Schlichtungsverfahren",
};

/**
 * The product's own description (du, like every visitor text). Lines starting with "- " are list
 * items, blank lines separate paragraphs (`textBlocks`). The compliance text names only what the
 * product's automated tests check (tests/e2e/a11y-*.spec.ts and the JS-off e2e project).
 */
export const ACCESSIBILITY_DEFAULTS: Record<AccessibilityCoreKey, string> = {
  service: [
    "Auf dieser Website beschreibst du uns deine Software-Idee. Wir bauen dir daraus innerhalb von drei Tagen eine Testversion und zeigen sie dir in einem persönlichen Demo-Termin. Dafür gibt es:",
    "",
    "- das Kontaktformular: Name, E-Mail-Adresse, Telefonnummer und eine kurze Beschreibung deines Unternehmens (mindestens 20 Zeichen) sind Pflicht, eine Beschreibung deines Projekts ist freiwillig;",
    "- eine Sprachnachricht (freiwillig): Du nimmst deine Idee direkt im Browser auf oder lädst eine Audiodatei hoch;",
    "- Dateianhänge (freiwillig): Bilder und Dokumente wie PDF, Word, Excel oder PowerPoint; welche Formate und wie viele Dateien erlaubt sind, steht direkt am Formular;",
    "- die Buchung eines Demo-Termins: Nach dem Absenden wählst du einen Tag und eine freie Uhrzeit aus;",
    "- „Meine Anfragen“: Deine gesendeten Anfragen bleiben in diesem Browser sichtbar. Dort siehst du sie noch einmal, buchst einen Termin oder ziehst eine Anfrage zurück.",
  ].join("\n"),
  usage: [
    "- Alles geht mit der Tastatur: Mit Tab und Umschalt+Tab erreichst du jedes Feld, jeden Link und jeden Knopf, mit Enter oder der Leertaste löst du ihn aus. Wo der Fokus steht, ist sichtbar markiert.",
    "- Alles geht auch ohne JavaScript: Formular, Dateien, Sprachnachricht (dann als Audiodatei), Terminbuchung und „Meine Anfragen“ sind dann gewöhnliche Seiten und Formulare.",
    "- Jedes Feld hat eine sichtbare Beschriftung, die Screenreader vorlesen; Pflichtfelder sind gekennzeichnet. Fehler stehen als Text direkt am Feld und in einer Liste über dem Formular, die den Fokus bekommt und vorgelesen wird.",
    "- Die Terminbuchung öffnet sich als Dialog: Der Fokus springt hinein, Tab bleibt im Dialog, Escape schließt ihn. Tage ohne freie Zeit sind als nicht wählbar ausgewiesen, freie Uhrzeiten sind Knöpfe. Ohne JavaScript ist die Buchung eine eigene Seite.",
    "- Die Sprachaufnahme startest und beendest du mit Knöpfen; die Dauer wird angezeigt. Die Sprachnachricht ist freiwillig – schreiben reicht.",
    "- Oben rechts wählst du den hellen oder dunklen Modus; deine Wahl bleibt gespeichert. Die Seite passt sich schmalen Bildschirmen an.",
    "- Bestätigungen und Hinweise – etwa dass deine Anfrage angekommen ist – werden Screenreadern angesagt.",
  ].join("\n"),
  compliance: [
    "Maßstab ist die Norm EN 301 549, für Websites also die Web Content Accessibility Guidelines (WCAG) 2.1 in der Stufe AA. So setzen wir sie um und prüfen sie:",
    "",
    "- Jeder Ablauf für Besucherinnen und Besucher – Anfrage senden, Dateien und Sprachnachricht, Termin buchen, verschieben und absagen, „Meine Anfragen“, Anfrage zurückziehen, diese Seite und ihr Rückmeldeformular – wird von den automatischen Tests der Software im Browser Chromium durchgespielt, einmal mit und einmal ohne JavaScript, auf einem Smartphone-Bildschirm (390 Pixel breit) und auf einem Desktop-Bildschirm.",
    "- Automatische Prüfungen mit dem Werkzeug axe-core (mit seinen Regeln zu WCAG 2.1 A und AA, die sich automatisch prüfen lassen, etwa Kontraste, Beschriftungen, Namen von Knöpfen und Links, Überschriften, Landmarken und ARIA-Attribute) laufen im hellen und im dunklen Modus auf der Startseite mit dem Kontaktformular und seinen Fehlermeldungen, auf „Meine Anfragen“, auf dieser Seite mit dem Rückmeldeformular, auf dem eingebetteten Formular, am Cookie-Hinweis, auf der Terminbuchung, auf der Seite zum Verwalten eines Termins und auf der Seite zum Zurückziehen einer Anfrage.",
    "- Die Farben der Seite halten auch mit eigener Markenfarbe einen Kontrast von mindestens 4,5:1 ein: Eine Farbe, mit der das nicht gelingt, lässt sich gar nicht erst einstellen.",
    "",
    "Automatisch nicht prüfen lassen sich etwa die Verständlichkeit der Texte oder die Bedienung mit einem Screenreader als Ganzes. Was wir darüber hinaus von Hand geprüft haben, steht im Abschnitt zur Prüfung, falls vorhanden.",
  ].join("\n"),
};

/** Suggestions for optional texts ("Vorschlag einsetzen" in the settings card). */
export const ACCESSIBILITY_SUGGESTIONS: Partial<Record<AccessibilityOptionalKey, string>> = {
  limitations: [
    "- Die Sprachaufnahme im Browser braucht ein Mikrofon und deine Erlaubnis dafür. Alternative: Beschreib deine Idee im Formular oder lade eine Audiodatei hoch.",
    "- Dateien, die du uns schickst, und die Testversion selbst sind nicht Teil dieser Website. Sag uns, welche Anforderungen deine Testversion erfüllen soll.",
  ].join("\n"),
  authority: [
    "Zuständig für die Überwachung des Barrierefreiheitsstärkungsgesetzes ist die Marktüberwachungsstelle der Länder für die Barrierefreiheit von Produkten und Dienstleistungen (MLBF) in Magdeburg. Wenn du meinst, dass diese Website die Anforderungen nicht erfüllt, kannst du dich dort beschweren.",
  ].join("\n"),
  arbitration: [
    "Nach § 34 des Barrierefreiheitsstärkungsgesetzes kannst du ein Schlichtungsverfahren bei der Schlichtungsstelle nach dem Behindertengleichstellungsgesetz beantragen (bei der oder dem Beauftragten der Bundesregierung für die Belange von Menschen mit Behinderungen, www.schlichtungsstelle-bgg.de). Das Verfahren ist kostenlos.",
  ].join("\n"),
};

/** A stored text: trimmed, line endings as "\n", empty = null. */
const storedText = (max: number) =>
  z
    .string()
    .max(max, `Höchstens ${max} Zeichen.`)
    .nullish()
    .transform((v) => normaliseText(v ?? "") || null);

export const ACCESSIBILITY_TEXT_MAX = 8000;

export const AccessibilitySchema = z.object({
  /** "Erklärung veröffentlichen": the page and its footer links (default on). */
  publish: z.boolean().default(true),
  service: storedText(ACCESSIBILITY_TEXT_MAX),
  usage: storedText(ACCESSIBILITY_TEXT_MAX),
  compliance: storedText(ACCESSIBILITY_TEXT_MAX),
  limitations: storedText(ACCESSIBILITY_TEXT_MAX),
  assessment: storedText(2000),
  contact: storedText(2000),
  authority: storedText(2000),
  arbitration: storedText(2000),
  /** Days the feedback of the page is kept. */
  /** Days a feedback entry is kept (the daily retention run erases older ones). */
  feedbackDays: clampedSetting("accessibility.feedbackDays"),
});
export type AccessibilitySettings = z.infer<typeof AccessibilitySchema>;

export const DEFAULT_ACCESSIBILITY: AccessibilitySettings = AccessibilitySchema.parse({});

/** Line endings as "\n" and the whole trimmed (a textarea posts "\r\n"). */
export function normaliseText(text: string): string {
  return text.replace(/\r\n?/g, "\n").trim();
}

/** The statement as the page shows it: the core texts resolved, the optional ones when set. */
export function accessibilityStatement(settings: AccessibilitySettings) {
  return {
    service: settings.service ?? ACCESSIBILITY_DEFAULTS.service,
    usage: settings.usage ?? ACCESSIBILITY_DEFAULTS.usage,
    compliance: settings.compliance ?? ACCESSIBILITY_DEFAULTS.compliance,
    limitations: settings.limitations,
    assessment: settings.assessment,
    contact: settings.contact,
    authority: settings.authority,
    arbitration: settings.arbitration,
  };
}
export type AccessibilityStatement = ReturnType<typeof accessibilityStatement>;

/** The page's sections in order: the three of Anlage 3 Nr. 1, then the optional ones. */
const SECTION_ORDER: AccessibilityTextKey[] = [
  ...ACCESSIBILITY_CORE_KEYS,
  ...ACCESSIBILITY_OPTIONAL_KEYS,
];

export const sectionId = (key: AccessibilityTextKey) => `abschnitt-${key}`;

/** The sections that have a text (the optional ones only when set), with their headings. */
export function statementSections(statement: AccessibilityStatement) {
  return SECTION_ORDER.flatMap((key) => {
    const text = statement[key];
    return text ? [{ key, title: ACCESSIBILITY_HEADINGS[key], text }] : [];
  });
}

export type TextBlock = { kind: "paragraph"; text: string } | { kind: "list"; items: string[] };

/**
 * A text of the statement as blocks: blank lines separate paragraphs, lines starting with "- "
 * (or "• ") are list items; other line breaks stay inside their paragraph. Rendered as text
 * (never HTML).
 */
export function textBlocks(text: string): TextBlock[] {
  const blocks: TextBlock[] = [];
  let paragraph: string[] = [];
  let list: string[] = [];
  const flush = () => {
    if (paragraph.length) blocks.push({ kind: "paragraph", text: paragraph.join("\n") });
    if (list.length) blocks.push({ kind: "list", items: list });
    paragraph = [];
    list = [];
  };
  for (const raw of normaliseText(text).split("\n")) {
    const line = raw.trim();
    const item = /^[-•]\s+(.*)$/.exec(line);
    if (!line) flush();
    else if (item) {
      if (paragraph.length) {
        blocks.push({ kind: "paragraph", text: paragraph.join("\n") });
        paragraph = [];
      }
      list.push(item[1] as string);
    } else if (list.length) {
      // A line after a list item continues it (a wrapped item).
      list[list.length - 1] = `${list[list.length - 1]} ${line}`;
    } else paragraph.push(line);
  }
  flush();
  return blocks;
}

// ---------- the feedback form of the page ----------

export const FEEDBACK_MESSAGES = {
  messageRequired: "Bitte beschreib kurz, wo du auf eine Barriere gestoßen bist.",
  messageTooShort: "Bitte beschreib die Barriere in mindestens 10 Zeichen.",
  messageTooLong: "Bitte fasse dich kürzer (höchstens 5000 Zeichen).",
  emailInvalid: "Bitte gib eine gültige E-Mail-Adresse ein – oder lass das Feld leer.",
  sent: "Danke für deine Rückmeldung! Wir sehen sie uns an. Eine Bestätigung per E-Mail schicken wir nicht.",
  failed: "Deine Rückmeldung konnte nicht gesendet werden. Bitte versuch es noch einmal.",
  unpublished:
    "Rückmeldungen zur Barrierefreiheit nehmen wir hier gerade nicht an. Bitte schreib uns über die Kontaktdaten im Impressum.",
} as const;

const optionalText = (max: number, message: string) =>
  z
    .string()
    .trim()
    .max(max, message)
    .optional()
    .transform((v) => v || null);

/** The feedback form, on the page (Conform, client and server) and in its action. */
export const FeedbackSchema = z.object({
  // One message at a time; refinements, not a pipe (Conform would read "" there as missing).
  message: z
    .string({ error: FEEDBACK_MESSAGES.messageRequired })
    .transform(normaliseText)
    .superRefine((text, ctx) => {
      const message =
        text.length === 0
          ? FEEDBACK_MESSAGES.messageRequired
          : text.length < 10
            ? FEEDBACK_MESSAGES.messageTooShort
            : text.length > 5000
              ? FEEDBACK_MESSAGES.messageTooLong
              : null;
      if (message) ctx.addIssue({ code: "custom", message });
    }),
  location: optionalText(300, "Höchstens 300 Zeichen."),
  name: optionalText(100, "Höchstens 100 Zeichen."),
  email: z
    .string()
    .trim()
    .max(254, FEEDBACK_MESSAGES.emailInvalid)
    .optional()
    .transform((v) => v || null)
    .pipe(z.email(FEEDBACK_MESSAGES.emailInvalid).nullable()),
});
export type FeedbackInput = z.output<typeof FeedbackSchema>;

/** One feedback entry as the admin list shows it. */
export type FeedbackEntry = {
  id: number;
  createdAt: string;
  message: string;
  location: string | null;
  name: string | null;
  email: string | null;
  /** Sent without a valid proof of work, or blocklisted: shown as "ungeprüft" (ADR 250). */
  held: boolean;
};

// ---------- the settings card "Barrierefreiheit" ----------

const formText = (max: number) => z.string().max(max, `Höchstens ${max} Zeichen.`).default("");

/**
 * The card's part of the settings form. Optional as a whole: a post without it (a hand-made one)
 * keeps the stored statement; the card always posts `feedbackDays`.
 */
export const AccessibilityFormSchema = z.object({
  publish: z.boolean().default(false),
  service: formText(ACCESSIBILITY_TEXT_MAX),
  usage: formText(ACCESSIBILITY_TEXT_MAX),
  compliance: formText(ACCESSIBILITY_TEXT_MAX),
  limitations: formText(ACCESSIBILITY_TEXT_MAX),
  assessment: formText(2000),
  contact: formText(2000),
  authority: formText(2000),
  arbitration: formText(2000),
});

/** What the card shows: the stored texts, the product's own where none is stored. */
export function accessibilityFormDefaults(settings: AccessibilitySettings) {
  return {
    publish: settings.publish,
    ...accessibilityStatement(settings),
    limitations: settings.limitations ?? "",
    assessment: settings.assessment ?? "",
    contact: settings.contact ?? "",
    authority: settings.authority ?? "",
    arbitration: settings.arbitration ?? "",
    feedbackDays: settings.feedbackDays,
  };
}

/** The saved card as settings: a core text equal to the product's (or empty) is stored as null. */
export function accessibilityFromForm(
  value: z.output<typeof AccessibilityFormSchema> & { feedbackDays: number },
): AccessibilitySettings {
  const core = Object.fromEntries(
    ACCESSIBILITY_CORE_KEYS.map((key) => {
      const text = normaliseText(value[key]);
      return [key, text === "" || text === ACCESSIBILITY_DEFAULTS[key] ? null : text];
    }),
  ) as Record<AccessibilityCoreKey, string | null>;
  const optional = Object.fromEntries(
    ACCESSIBILITY_OPTIONAL_KEYS.map((key) => [key, normaliseText(value[key]) || null]),
  ) as Record<AccessibilityOptionalKey, string | null>;
  return { publish: value.publish, ...core, ...optional, feedbackDays: value.feedbackDays };
}
