// The pad's German catalog: each English text of the code (the key, exactly as written in
// t()/tn()/tx() or marked data-t in index.html) and its translation. A count gives a text per
// plural category (one and other). One entry per line, in JSON syntax, in the section of the
// file that uses it (tests/e2e/test_pad_catalogs.py reads this file).
export default {
  // --- index.html ---
  "Solo score pad": "Solo-Punkteblock",
  "Skip to the score": "Zum Spielstand springen",
  "Solo pad": "Solo-Block",
  "Online": "Online",
  "Loading…": "Wird geladen …",

  // --- i18n.js ---
  "Language": "Sprache",

  // --- app.js ---
  "Offline": "Offline",
  "sending {n} hand": {"one": "sende {n} Spiel", "other": "sende {n} Spiele"},
  "{n} hand kept on this phone": {"one": "{n} Spiel auf diesem Handy", "other": "{n} Spiele auf diesem Handy"},
  "{n} hand to check": {"one": "{n} Spiel zu prüfen", "other": "{n} Spiele zu prüfen"},
  "Hand {number} recorded.": "Spiel {number} eingetragen.",
  "The hands wait for the network": "Die Spiele warten auf das Netz",
  "Club {name} opened on this phone.": "Club {name} auf diesem Handy geöffnet.",
  "No connection: open the link again when online.": "Keine Verbindung: den Link online noch einmal öffnen.",
  "That club link did not work.": "Dieser Club-Link hat nicht funktioniert.",
  "No token for this table": "Kein Schlüssel für diesen Tisch",
  "Open the table with the link or QR code from a phone that has it.": "Den Tisch mit dem Link oder QR-Code von einem Handy öffnen, das ihn hat.",
  "Start": "Start",
  "Table not available": "Tisch nicht verfügbar",
  "No connection, and this phone has no copy of the table yet.": "Keine Verbindung, und dieses Handy hat noch keine Kopie des Tisches.",

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
