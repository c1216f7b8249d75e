// The big screen of a club night: polls the board with If-None-Match and shows it.
// The token is in the URL's fragment (#token=…), which never reaches a server.
const body = document.body;
const content = document.getElementById('content');
const every = Number(body.dataset.every || '5') * 1000;
const token = new URLSearchParams(location.hash.slice(1)).get('token');
const status = document.createElement('p');
status.className = 'status';
status.setAttribute('role', 'status');
document.body.append(status);
let etag = null;

function say(text) {
  status.textContent = text || '';
  status.hidden = !text;
}

async function poll() {
  try {
    const headers = { Authorization: `Bearer ${token}` };
    if (etag) headers['If-None-Match'] = etag;
    const answer = await fetch(body.dataset.board, { headers, cache: 'no-store' });
    if (answer.status === 200) {
      etag = answer.headers.get('ETag');
      content.innerHTML = await answer.text(); // the server's own markup, every name escaped
      say('');
    } else if (answer.status !== 304) {
      const problem = await answer.json().catch(() => null);
      say((problem && problem.detail) || answer.statusText);
    }
  } catch {
    say(body.dataset.offline);
  }
  setTimeout(poll, every);
}

if (!token) say(body.dataset.tokenMissing);
else poll();
