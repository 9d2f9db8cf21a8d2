/** What the demo page embeds: the importd server, the element's attributes. */
export interface DemoPageInput {
  server: string;
  publicKey: string | undefined;
  sessionToken: string;
  templateId: string;
}

const escapeAttribute = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * The page `importd embed demo` serves: the snippet of README "Embedding the importer", with a field for the
 * Public Key when the operator did not pass one (its value is shown only when the key is created).
 */
export function demoPage(input: DemoPageInput): string {
  const server = escapeAttribute(input.server);
  const publicKey = input.publicKey === undefined ? '' : escapeAttribute(input.publicKey);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>importd importer demo</title>
<style>body { font: 15px system-ui, sans-serif; margin: 0 auto; padding: 16px; max-width: 760px; } pre { white-space: pre-wrap; overflow-wrap: anywhere; }</style>
</head><body>
<h1>importd importer demo</h1>
${input.publicKey === undefined ? '<p><label>Public Key <input id="key" size="40" autocomplete="off"></label> <button id="use">Use</button></p>' : ''}
<importd-importer server="${server}" public-key="${publicKey}" session-token="${escapeAttribute(input.sessionToken)}" template-id="${escapeAttribute(input.templateId)}"></importd-importer>
<pre id="events"></pre>
<script src="${server}/embed/importer.js"></script>
<script>
  const importer = document.querySelector('importd-importer');
  const log = (text) => { document.getElementById('events').textContent += text + '\\n'; };
  document.addEventListener('importd:complete', (event) => log('importd:complete ' + JSON.stringify(event.detail)));
  document.addEventListener('importd:error', (event) => log('importd:error ' + JSON.stringify(event.detail)));
  const use = document.getElementById('use');
  if (use) use.addEventListener('click', () => {
    const fresh = importer.cloneNode();
    fresh.setAttribute('public-key', document.getElementById('key').value.trim());
    importer.replaceWith(fresh);
    location.hash = '';
  });
</script>
</body></html>
`;
}
