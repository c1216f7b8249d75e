// Die Wörter des Pads auf Deutsch (i18n.js lädt sie, wenn Deutsch gewählt ist). Schlüssel: der
// englische Text im Code; Plurale nach Intl.PluralRules('de'). JSON nach `export default`.
export default {
  "Language": "Sprache",
  "Skip to the score": "Zum Punktestand springen",
  "Online": "Online",
  "Offline": "Offline",
  "{n} hand": { "one": "{n} Spiel", "other": "{n} Spiele" },
  "sending {hands}": "sende {hands}",
  "{hands} kept on this phone": "{hands} auf diesem Telefon gespeichert",
  "{hands} to check": "{hands} zu prüfen",
  "Hand {n} recorded.": "Spiel {n} eingetragen.",
  "Club {name} opened on this phone.": "Club {name} auf diesem Telefon geöffnet.",
  "No connection: open the link again when online.": "Keine Verbindung: den Link wieder öffnen, wenn du online bist.",
  "That club link did not work.": "Dieser Club-Link hat nicht funktioniert.",
  "No token for this table": "Kein Zugang zu diesem Tisch",
  "Open the table with the link or QR code from a phone that has it.": "Öffne den Tisch mit dem Link oder QR-Code von einem Telefon, das ihn hat.",
  "Start": "Start",
  "Table not available": "Tisch nicht verfügbar",
  "No connection, and this phone has no copy of the table yet.": "Keine Verbindung, und dieses Telefon hat noch keine Kopie des Tisches."
};
