// Las palabras del pad en español (i18n.js las carga cuando se elige español). Clave: el texto
// inglés del código; plurales según Intl.PluralRules('es'). JSON tras `export default`.
export default {
  "Language": "Idioma",
  "Skip to the score": "Ir a la puntuación",
  "Online": "En línea",
  "Offline": "Sin conexión",
  "{n} hand": { "one": "{n} mano", "many": "{n} manos", "other": "{n} manos" },
  "sending {hands}": "enviando {hands}",
  "{hands} kept on this phone": "{hands} guardadas en este teléfono",
  "{hands} to check": "{hands} por revisar",
  "Hand {n} recorded.": "Mano {n} anotada.",
  "Club {name} opened on this phone.": "Club {name} abierto en este teléfono.",
  "No connection: open the link again when online.": "Sin conexión: abre el enlace de nuevo cuando tengas conexión.",
  "That club link did not work.": "Ese enlace del club no funcionó.",
  "No token for this table": "Sin acceso a esta mesa",
  "Open the table with the link or QR code from a phone that has it.": "Abre la mesa con el enlace o el código QR desde un teléfono que la tenga.",
  "Start": "Inicio",
  "Table not available": "Mesa no disponible",
  "No connection, and this phone has no copy of the table yet.": "Sin conexión, y este teléfono aún no tiene una copia de la mesa."
};
