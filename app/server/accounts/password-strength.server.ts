import { failure } from "../platform/result.server";

/**
 * The strength rule of every new password (registration, change, reset — also the link of
 * `npm run admin:reset-password`): zxcvbn with its common and German dictionaries, score 3 or more
 * (ADR 262). Server only: the dictionaries are megabytes. The length rule (12) is in the schemas.
 */
export const MIN_PASSWORD_SCORE = 3;

/**
 * zxcvbn with its dictionaries, loaded on the first password that is set (a chunk of its own: the
 * megabytes of word lists stay out of the server's memory until then; the machine has 256 MB).
 */
let loaded: Promise<typeof import("@zxcvbn-ts/core").zxcvbn> | undefined;
function scorer() {
  loaded ??= (async () => {
    const [{ zxcvbn, zxcvbnOptions }, common, de] = await Promise.all([
      import("@zxcvbn-ts/core"),
      import("@zxcvbn-ts/language-common"),
      import("@zxcvbn-ts/language-de"),
    ]);
    zxcvbnOptions.setOptions({
      translations: de.translations,
      graphs: common.adjacencyGraphs,
      dictionary: { ...common.dictionary, ...de.dictionary },
    });
    return zxcvbn;
  })();
  return loaded;
}

/**
 * null when `password` is strong enough, else the German message with zxcvbn's feedback.
 * `userInputs` (username, e-mail) count as guessable words.
 */
export async function weakPasswordMessage(
  password: string,
  userInputs: string[] = [],
): Promise<string | null> {
  const zxcvbn = await scorer();
  const inputs = userInputs.flatMap((v) => [v, ...v.split(/[@._-]+/)]).filter((v) => v.length > 2);
  // zxcvbn is superlinear in length; beyond 100 characters only the first 100 are scored.
  const result = zxcvbn(password.slice(0, 100), inputs);
  if (result.score >= MIN_PASSWORD_SCORE) return null;
  const hints = [result.feedback.warning, ...result.feedback.suggestions].filter(Boolean);
  return ["Dieses Passwort ist zu leicht zu erraten.", ...hints].join(" ");
}

/** The `Failure` of a weak password, for the field the form names it in. */
export async function weakPassword(password: string, field: string, userInputs: string[] = []) {
  const error = await weakPasswordMessage(password, userInputs);
  return error ? failure(400, error, field) : null;
}
