/** The federal states `date-holidays` knows for DE (ISO 3166-2 suffix) with their German names. */
export const GERMAN_STATES = {
  BW: "Baden-Württemberg",
  BY: "Bayern",
  BE: "Berlin",
  BB: "Brandenburg",
  HB: "Bremen",
  HH: "Hamburg",
  HE: "Hessen",
  MV: "Mecklenburg-Vorpommern",
  NI: "Niedersachsen",
  NW: "Nordrhein-Westfalen",
  RP: "Rheinland-Pfalz",
  SL: "Saarland",
  SN: "Sachsen",
  ST: "Sachsen-Anhalt",
  SH: "Schleswig-Holstein",
  TH: "Thüringen",
} as const;
export type GermanState = keyof typeof GERMAN_STATES;
export const GERMAN_STATE_CODES = Object.keys(GERMAN_STATES) as GermanState[];
