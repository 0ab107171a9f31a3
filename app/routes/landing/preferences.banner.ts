// Placeholder: built by issue #3.
const notYet = () => Response.json({ error: "Noch nicht verfügbar" }, { status: 501 });
export const loader = notYet;
export const action = notYet;
