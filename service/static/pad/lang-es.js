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
  "No connection": "Sin conexión",
  "kind": "tipo",
  "contract": "juego",
  "trump": "triunfo",
  "declarer": "jugador",
  "called": "carta llamada",
  "rank": "valor",
  "suit": "palo",
  "partner": "compañero",
  "tricks": "bazas",
  "tout after five": "tout tras cinco",
  "matadores": "matadores",
  "side": "bando",
  "lower": "menores",
  "seat": "asiento",
  "forced": "forzado",
  "giver": "quien dio el as",
  "stopped after five": "paró tras cinco",
  "continued after five": "siguió tras cinco",
  "tout announced": "tout anunciado",
  "matadors together": "matadores juntos",
  "soloist": "solista",
  "soloist points": "puntos del solista",
  "defender points": "puntos de los defensores",
  "last trick": "última baza",
  "name": "nombre",
  "variant": "variante",
  "seats": "asientos",
  "first dealer": "primer repartidor",
  "options": "opciones",
  "error {number}": "error {number}",
  "The server answered {status}": "El servidor respondió {status}",

  // --- dom.js ---

  // --- model.js ---

  // --- outbox.js ---

  // --- qr.js ---
  "Text too long for a QR code": "Texto demasiado largo para un código QR",
  "QR code": "Código QR",

  // --- start.js ---
  "No connection: try again when online.": "Sin conexión: inténtalo de nuevo cuando haya red.",
  "How the couleur changes": "Cómo cambia el color",
  "Bête on a lost solo": "Bête en un solo perdido",
  "Matadores count for": "Los matadores cuentan para",
  "Tout after five is worth": "El tout tras cinco vale",
  "End after this many hands": "Terminar tras estas manos",
  "End at this score": "Terminar con esta puntuación",
  "The pool at the end": "El bote al final",
  "Starting pool": "Bote inicial",
  "Stake": "Apuesta",
  "Stamm": "Stamm",
  "Couleur": "Color",
  "Preferred suit": "Palo preferido",
  "Mediateur": "Mediateur",
  "Deck": "Baraja",
  "Fixed": "Fijo",
  "Trump of the first game won": "El triunfo del primer juego ganado",
  "Every lost solo": "Todo solo perdido",
  "Only in couleur": "Únicamente en color",
  "Either side": "Cualquier bando",
  "The declaring side only": "Únicamente el bando del jugador",
  "Double": "Doble",
  "Twice in suit, four in couleur": "Doble a palo, cuádruple en color",
  "Shared among the players": "Repartido entre los jugadores",
  "Kept by the club": "Lo guarda el club",
  "Clubs": "Tréboles",
  "Spades": "Picas",
  "Hearts": "Corazones",
  "Diamonds": "Diamantes",
  "None": "Ninguno",
  "No limit": "Sin límite",
  "Create a club": "Crear un club",
  "Club name": "Nombre del club",
  "Create the club": "Crear el club",
  "Open a club with its admin token": "Abrir un club con su clave de administrador",
  "Club id": "ID del club",
  "Admin token": "Clave de administrador",
  "Open the club": "Abrir el club",
  "Club": "Club",
  "The club’s admin token": "La clave de administrador del club",
  "This phone keeps the admin token. It is shown here only: keep it somewhere safe too. With it, another phone can open the club:": "Este móvil guarda la clave de administrador. Solo se muestra aquí: guárdala también en un lugar seguro. Con ella, otro móvil puede abrir el club:",
  "QR code of the link that opens the club": "Código QR del enlace que abre el club",
  "Club: {name}": "Club: {name}",
  "Tables, standings and players": "Mesas, clasificación y jugadores",
  "New table": "Nueva mesa",
  "Loading players…": "Cargando jugadores…",
  "Table {date}": "Mesa {date}",
  "Name": "Nombre",
  "Add": "Añadir",
  "{game} is played by {counts}. Tap the players in the order they sit (the deal passes to the left).": "{game} se juega con {counts} jugadores. Toca a los jugadores en el orden en que se sientan (el turno de dar pasa a la izquierda).",
  "Players": "Jugadores",
  "seat {number}": "asiento {number}",
  "New player’s name": "Nombre del nuevo jugador",
  "First dealer": "Primer repartidor",
  "yes": "sí",
  "no": "no",
  "Default: {value}. {help}": "Por defecto: {value}. {help}",
  "Default: shared among the players when the table closes; or kept by the club for its next table.": "Por defecto: se reparte entre los jugadores al cerrar la mesa; o lo guarda el club para su próxima mesa.",
  "Default: 0. A pool the club kept from an earlier table (only when the club keeps the pool).": "Por defecto: 0. Un bote que el club guardó de una mesa anterior (solo si el club guarda el bote).",
  "Options (defaults shown)": "Opciones (valores por defecto)",
  "Open the table": "Abrir la mesa",
  "Pick {counts} players.": "Elige {counts} jugadores.",
  "Table": "Mesa",
  "Table name": "Nombre de la mesa",
  "Game": "Juego",
  "Tables on this phone": "Mesas en este móvil",
  "{name} (closed)": "{name} (cerrada)",
  "Keep the score of a Solo table: record each hand in a few taps, every phone at the table sees it.": "Lleva la cuenta de una mesa de Solo: anota cada mano con unos toques y todos los móviles de la mesa la ven.",
  "Another club": "Otro club",

  // --- hand.js ---

  // --- screens.js ---

  // --- table.js ---

  // --- league.js ---

  // --- league-admin.js ---

};
