const notFound = () => Response.json({ error: "Nicht gefunden" }, { status: 404 });

/** Unknown /api paths answer JSON 404 instead of the HTML redirect. */
export const loader = notFound;
export const action = notFound;
