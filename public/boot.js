/*
 * The page's one script tag (webpack.config.ts puts it in, scripts/firstScripts.ts). The HTML preloads the page's
 * scripts at low priority; this runs them once the browser has painted the server's markup, so that the bill is on
 * screen before they take the main thread to hydrate it, and Lighthouse's simulated loads do not count them as blocking
 * that paint. A page with nothing of the server's to paint runs them at once.
 */
(() => {
  // Longest wait for the paint: a tab opened in the background paints only when shown.
  const PAINT_WAIT_MS = 2000;
  const run = () => {
    for (const link of document.querySelectorAll('link[rel="preload"][as="script"]')) {
      const script = document.createElement('script');
      script.src = link.href;
      // In the order the HTML lists them, as deferred scripts would run.
      script.async = false;
      // Lost (the network, a blocked file): the page says paying needs it, and its buttons stop spinning.
      script.onerror = () => {
        document.documentElement.classList.add('script-failed');
        document.getElementById('script-failed')?.removeAttribute('hidden');
      };
      document.head.appendChild(script);
    }
  };
  let started = false;
  // A task after the paint, not inside the paint's own.
  const start = () => {
    if (started) return;
    started = true;
    setTimeout(run, 0);
  };
  const markup = ['root', 'result'].some((id) => document.getElementById(id)?.hasChildNodes());
  if (!markup) return run();
  setTimeout(start, PAINT_WAIT_MS);
  if (!PerformanceObserver.supportedEntryTypes?.includes('paint')) return void requestAnimationFrame(start);
  new PerformanceObserver((entries, observer) => {
    if (entries.getEntriesByName('first-contentful-paint').length === 0) return;
    observer.disconnect();
    start();
  }).observe({ type: 'paint', buffered: true });
})();
