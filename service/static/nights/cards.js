// The table cards of a club night's series: asks the server for the cards (each table's link
// and its QR code; the admin token from the URL's fragment, #token=…), then offers to print them.
const body = document.body;
const content = document.getElementById('content');
const token = new URLSearchParams(location.hash.slice(1)).get('token');

function say(text) {
  const note = document.createElement('p');
  note.className = 'status';
  note.setAttribute('role', 'status');
  note.textContent = text;
  content.replaceChildren(note);
}

// The cards carry each table's one link, the one the admin screen shows: printing again locks
// no phone out, so the page simply asks for them (new links are the admin screen's, on purpose).
async function load() {
  const answer = await fetch(body.dataset.cards, {
    method: 'POST',
    // the page's own language, for a refusal's words too
    headers: { Authorization: `Bearer ${token}`, 'Accept-Language': document.documentElement.lang },
    cache: 'no-store',
  });
  if (!answer.ok) {
    const problem = await answer.json().catch(() => null);
    say((problem && problem.detail) || answer.statusText);
    return;
  }
  content.innerHTML = await answer.text(); // the server's own markup, every name escaped
  const print = document.createElement('button');
  print.type = 'button';
  print.className = 'print';
  print.textContent = body.dataset.print;
  print.addEventListener('click', () => window.print());
  content.before(print);
}

if (!token) say(body.dataset.tokenMissing);
else load().catch(() => say(body.dataset.tokenMissing));
