import { useHydrated } from './useHydrated';

/**
 * What a first step waits for while the page's script is not yet running (the server's markup, before hydration): its
 * form takes no press until then, and says so rather than sit disabled in silence. Gone once the script runs; hidden
 * when it will never run (JavaScript off, or its load failed: the page's script notice says that instead).
 */
export function ScriptWaiting({ children }: { children: string }) {
  const hydrated = useHydrated();
  if (hydrated) return null;
  return (
    <p className="field-note script-waiting" role="status">
      {children}
    </p>
  );
}
