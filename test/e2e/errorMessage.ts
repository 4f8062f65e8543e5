/**
 * Rewrites a thrown error's message, and its stack, which is what jest prints (the stack's first line is the message as
 * it was when the stack was first read). By the error's shape, not `instanceof Error`: a journey's errors come from
 * several realms (the test file's, its environment's, and Playwright's, which the worker loads once:
 * test/support/workerEnvironment.ts). Returns false, changing nothing, for a thrown value that is not such an error.
 */
export function rewriteMessage(error: unknown, rewrite: (message: string) => string): boolean {
  if (typeof error !== 'object' || error === null || !('message' in error) || typeof error.message !== 'string') return false;
  const thrown = error as { message: string; stack?: unknown };
  const original = thrown.message;
  // Read before the message changes: V8 writes the stack out at its first reading, with the message of that moment.
  const stack = typeof thrown.stack === 'string' ? thrown.stack : undefined;
  thrown.message = rewrite(original);
  if (stack?.includes(original)) thrown.stack = stack.replace(original, () => thrown.message);
  return true;
}
