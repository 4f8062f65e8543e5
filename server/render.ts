/** Escapes text for an HTML text node or a double-quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** A small server-rendered page for the sandbox parties: no script unless given, one shared stylesheet. */
export function sandboxPage(title: string, body: string, scripts: string[] = []): string {
  return `<!doctype html>
<html lang="ru">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="/sandbox/sandbox.css">
</head>
<body>
<main class="sandbox">
<p class="sandbox-badge">Песочница: тестовая среда, деньги не списываются</p>
${body}
</main>
${scripts.map((src) => `<script src="${escapeHtml(src)}"></script>`).join('\n')}
</body>
</html>`;
}
