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

// Once a table keeps its score its phones hold the card's link: the server then refuses new
// cards (409 night-cards-in-use), and only a second, deliberate press makes them anyway.
const IN_USE = 'urn:solo:problem:night-cards-in-use';

async function load(renew = false) {
  const url = renew ? `${body.dataset.cards}&renew=1` : body.dataset.cards;
  const answer = await fetch(url, {
    method: 'POST',
    // the page's own language, for a refusal's words too
    headers: { Authorization: `Bearer ${token}`, 'Accept-Language': document.documentElement.lang },
    cache: 'no-store',
  });
  if (!answer.ok) {
    const problem = await answer.json().catch(() => null);
    say((problem && problem.detail) || answer.statusText);
    if (problem && problem.type === IN_USE) {
      const again = document.createElement('button');
      again.type = 'button';
      again.textContent = body.dataset.renew;
      again.addEventListener('click', () => load(true).catch(() => say(body.dataset.tokenMissing)));
      content.append(again);
    }
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
