// The pad's Spanish catalog: each English text of the code (the key, exactly as written in
// t()/tn()/tx() or marked data-t in index.html) and its translation. A count gives a text per
// plural category (one, many and other). One entry per line, in JSON syntax, in the section of the
// file that uses it (tests/e2e/test_pad_catalogs.py reads this file).
export default {
  // --- index.html ---
  "Solo score pad": "Marcador de Solo",
  "Skip to the score": "Ir al marcador",
  "Solo pad": "Marcador Solo",
  "Online": "En línea",
  "Loading…": "Cargando…",

  // --- i18n.js ---
  "Language": "Idioma",

  // --- app.js ---
  "Offline": "Sin conexión",
  "sending {n} hand": {"one": "enviando {n} mano", "many": "enviando {n} manos", "other": "enviando {n} manos"},
  "{n} hand kept on this phone": {"one": "{n} mano guardada en este móvil", "many": "{n} manos guardadas en este móvil", "other": "{n} manos guardadas en este móvil"},
  "{n} hand to check": {"one": "{n} mano por revisar", "many": "{n} manos por revisar", "other": "{n} manos por revisar"},
  "Hand {number} recorded.": "Mano {number} anotada.",
  "The hands wait for the network": "Las manos esperan a la red",
  "Club {name} opened on this phone.": "Club {name} abierto en este móvil.",
  "No connection: open the link again when online.": "Sin conexión: abre el enlace de nuevo cuando haya red.",
  "That club link did not work.": "Ese enlace del club no funcionó.",
  "No token for this table": "No hay clave para esta mesa",
  "Open the table with the link or QR code from a phone that has it.": "Abre la mesa con el enlace o el código QR de un móvil que la tenga.",
  "Start": "Inicio",
  "Table not available": "Mesa no disponible",
  "No connection, and this phone has no copy of the table yet.": "Sin conexión, y este móvil aún no tiene copia de la mesa.",

  // --- api.js ---

  // --- dom.js ---

  // --- model.js ---

  // --- outbox.js ---

  // --- qr.js ---

  // --- start.js ---

  // --- hand.js ---

  // --- screens.js ---

  // --- table.js ---

  // --- league.js ---

  // --- league-admin.js ---

};
