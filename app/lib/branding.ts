import { z } from "zod";
import { BRAND_NAME } from "./brand";
import { colorProblem } from "./brand-color";
import { DEFAULT_PROMISES, daysInDigits, type PromiseSettings, withinDays } from "./promises";

/**
 * The agency's brand and landing texts (ADR 268): stored under `branding` in the
 * configuration. Every text is `null` until set (null = today's text below), so an installation
 * that changes nothing looks exactly as before, and "Zurücksetzen" is storing null again.
 */
export type FaqEntry = { question: string; answer: string };

export const DEFAULT_FAQ: FaqEntry[] = [
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
].map(([question, answer]) => ({ question, answer }));

const capitalized = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** "nach drei Tagen", "nach einem Werktag" (the FAQ's first question). */
const afterDays = (n: number, working: boolean) =>
  withinDays(n, working)
    .replace(/^innerhalb von /, "nach ")
    .replace(/^innerhalb eines (Werktag|Tag)e?s$/, "nach einem $1");

/**
 * Today's texts for the promises as configured (ADR 346): what a `null` in the configuration
 * stands for. With the defaults (one working day, three days) they are the spec's texts; other
 * numbers, or "Werktage", change the promise in every default text ("innerhalb von fünf
 * Werktagen"), so the page never promises what the back-office does not track.
 */
export function brandingDefaultsFor(promises: PromiseSettings) {
  const trial = withinDays(promises.trialDays, promises.trialWorkingDays);
  const contact = withinDays(promises.contactDays, true);
  return {
    name: BRAND_NAME,
    /** The default indigo of the buttons (Tailwind's indigo-600). */
    primaryColor: "#4f39f6",
    heroTitle: `Deine Software-Idee als Testversion – in nur ${daysInDigits(promises.trialDays, promises.trialWorkingDays)}`,
    heroSubtitle: `Beschreib uns dein Vorhaben per Text, Sprachnachricht oder mit ein paar Dateien. ${capitalized(trial)} bekommst du eine klickbare Testversion – und wir zeigen sie dir in einer persönlichen Demo.`,
    promise: `Wir melden uns ${contact} und liefern deine Testversion ${trial}.`,
    successMessage: `Wir sehen sie uns sofort an. Deine Testversion bekommst du ${trial}.`,
    /** `{jahr}` and `{name}` are replaced; the default is "© 2026 Anfrage-Portal". */
    footerLine: "© {jahr} {name}",
    faq: DEFAULT_FAQ.map((e, i) =>
      i === 0
        ? {
            ...e,
            question: `Was bekomme ich ${afterDays(promises.trialDays, promises.trialWorkingDays)}?`,
          }
        : e,
    ),
  } as const;
}
export type BrandingDefaults = ReturnType<typeof brandingDefaultsFor>;

/** The texts with the default promises (one working day, three days): the spec's. */
export const brandingDefaults = brandingDefaultsFor(DEFAULT_PROMISES);

/** The texts with a reset button each (name → default). */
export const BRANDING_TEXT_KEYS = [
  "name",
  "heroTitle",
  "heroSubtitle",
  "promise",
  "successMessage",
  "footerLine",
] as const;
export type BrandingTextKey = (typeof BRANDING_TEXT_KEYS)[number];

export const URL_INVALID = "Bitte geben Sie eine vollständige Adresse mit https:// ein.";

/** A text: trimmed, empty = null (the default). */
const text = (max: number) =>
  z
    .string()
    .max(max, `Höchstens ${max} Zeichen.`)
    .nullish()
    .transform((v) => (v?.trim() ? v.trim() : null));

const url = z
  .string()
  .nullish()
  .transform((v) => (v?.trim() ? v.trim() : null))
  .pipe(
    z
      .url({ protocol: /^https?$/, error: URL_INVALID })
      .max(2000, URL_INVALID)
      .nullable(),
  );

export const FaqEntrySchema = z.object({
  question: z.string().trim().min(1, "Bitte geben Sie eine Frage ein.").max(300),
  answer: z.string().trim().min(1, "Bitte geben Sie eine Antwort ein.").max(3000),
});

export const LogoSchema = z.object({
  hash: z.string().regex(/^[0-9a-f]{32}$/),
  type: z.enum(["png", "jpeg", "webp"]),
  /**
   * Stored under `logo-<hash>.<type>`, a name no upload can have (every logo uploaded since ADR
   * 293); absent: an older logo stored under `<hash>.<type>`.
   */
  prefixed: z.literal(true).optional(),
});
export type Logo = z.infer<typeof LogoSchema>;

export const BrandingSchema = z.object({
  /** One line (it is a mail's display name and an .ics parameter too): no control characters. */
  name: text(80).refine((v) => v === null || !/\p{Cc}/u.test(v), "Bitte nur eine Zeile eingeben."),
  privacyUrl: url,
  imprintUrl: url,
  primaryColor: z
    .string()
    .nullish()
    .transform((v) => (v?.trim() ? v.trim().toLowerCase() : null))
    .superRefine((v, ctx) => {
      const problem = v === null ? null : colorProblem(v);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
  logo: LogoSchema.nullish().transform((v) => v ?? null),
  heroTitle: text(200),
  heroSubtitle: text(1000),
  promise: text(200),
  /** null = the default questions; an empty list = no FAQ section entries. */
  faq: z
    .array(FaqEntrySchema)
    .max(50)
    .nullish()
    .transform((v) => v ?? null),
  successMessage: text(1000),
  footerLine: text(200),
});
export type BrandingSettings = z.infer<typeof BrandingSchema>;

export const EMPTY_BRANDING: BrandingSettings = {
  name: null,
  privacyUrl: null,
  imprintUrl: null,
  primaryColor: null,
  logo: null,
  heroTitle: null,
  heroSubtitle: null,
  promise: null,
  faq: null,
  successMessage: null,
  footerLine: null,
};

/** What pages, mails and the public configuration use: every null replaced by its default. */
export type Branding = {
  name: string;
  privacyUrl: string;
  imprintUrl: string;
  /** null: the built-in colours (nothing is overridden). */
  primaryColor: string | null;
  logoUrl: string | null;
  heroTitle: string;
  heroSubtitle: string;
  promise: string;
  faq: FaqEntry[];
  successMessage: string;
  footerLine: string;
};

/** `/branding/logo?v=<hash>`: the hash changes with the file, so it may be cached for long. */
export const logoUrl = (logo: Logo | null) => (logo ? `/branding/logo?v=${logo.hash}` : null);

/**
 * The settings with every default filled in (`legal`: the env's PRIVACY_URL and IMPRINT_URL;
 * `promises`: the pipeline's, which the default texts follow).
 */
export function resolveBranding(
  settings: BrandingSettings,
  legal: { privacyUrl: string; imprintUrl: string },
  promises: PromiseSettings = DEFAULT_PROMISES,
): Branding {
  const brandingDefaults = brandingDefaultsFor(promises);
  const name = settings.name ?? brandingDefaults.name;
  return {
    name,
    privacyUrl: settings.privacyUrl ?? legal.privacyUrl,
    imprintUrl: settings.imprintUrl ?? legal.imprintUrl,
    primaryColor: settings.primaryColor,
    logoUrl: logoUrl(settings.logo),
    heroTitle: settings.heroTitle ?? brandingDefaults.heroTitle,
    heroSubtitle: settings.heroSubtitle ?? brandingDefaults.heroSubtitle,
    promise: settings.promise ?? brandingDefaults.promise,
    faq: settings.faq ?? brandingDefaults.faq.map((e) => ({ ...e })),
    successMessage: settings.successMessage ?? brandingDefaults.successMessage,
    footerLine: settings.footerLine ?? brandingDefaults.footerLine,
  };
}

/** The footer's line with `{jahr}` and `{name}` filled in. */
export function footerText(branding: Pick<Branding, "footerLine" | "name">, year: string) {
  return branding.footerLine.replaceAll("{jahr}", year).replaceAll("{name}", branding.name);
}

/**
 * A page title with the brand's name after it once the name is the agency's own, unless the
 * title names it already ("… von Agentur Süd" needs no "– Agentur Süd").
 */
export function brandedTitle(title: string, name: string | undefined) {
  return name && name !== brandingDefaults.name && !title.includes(name)
    ? `${title} – ${name}`
    : title;
}

const landingTitleFor = (p: PromiseSettings) =>
  `Deine Software-Idee als Testversion in ${daysInDigits(p.trialDays, p.trialWorkingDays)}`;
const landingDescriptionFor = (p: PromiseSettings) =>
  `Beschreibe deine Software-Idee per Text, Sprachnachricht oder Datei. ${capitalized(withinDays(p.trialDays, p.trialWorkingDays))} erhältst du eine Testversion und eine persönliche Demo.`;

type LandingTexts = Pick<Branding, "name" | "heroTitle" | "heroSubtitle"> & {
  /** The pipeline's promises the default texts follow (ADR 346); absent: the defaults. */
  promises?: PromiseSettings;
};

/** The landing page's title: today's, or the agency's headline; its name after it once set. */
export function landingTitle(texts: LandingTexts | undefined) {
  const promises = texts?.promises ?? DEFAULT_PROMISES;
  if (!texts) return landingTitleFor(promises);
  const title =
    texts.heroTitle === brandingDefaultsFor(promises).heroTitle
      ? landingTitleFor(promises)
      : texts.heroTitle;
  return brandedTitle(title, texts.name);
}

/** The landing page's description: today's, or the agency's hero subtitle. */
export function landingDescription(texts: LandingTexts | undefined) {
  const promises = texts?.promises ?? DEFAULT_PROMISES;
  return !texts || texts.heroSubtitle === brandingDefaultsFor(promises).heroSubtitle
    ? landingDescriptionFor(promises)
    : texts.heroSubtitle;
}
