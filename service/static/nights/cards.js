// The table cards of a club night's series: asks the server for new links and their cards
// (the admin token from the URL's fragment, #token=…), then offers to print them.
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

async function load() {
  const answer = await fetch(body.dataset.cards, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
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
