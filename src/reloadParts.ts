import type { Dependencies } from './actors/dependencies';
import type { ResumeAfterReload } from './machines/checkoutResume';
import { steps } from './machines/steps';
import type { CodeRequest } from './services/types';

export interface ReloadParts {
  resumeAfterReload?: ResumeAfterReload;
  codeDraft: CodeRequest | null;
}

/**
 * A reload on a step: resuming it (machines/checkoutResume.ts) and, on the code screen, this tab's draft of the code
 * step (services/codeDraftReader.ts) are chunks of their own, loaded only then, so that no first visit carries them.
 * Failing to load either only means not resuming: the main route, or the step before the code screen.
 */
export async function reloadParts(resumePath: string, deps: Dependencies, objectOID: string): Promise<ReloadParts> {
  const [resumeAfterReload, codeDraft] = await Promise.all([
    import('./machines/checkoutResume').then(({ resumeAfterReload }) => resumeAfterReload).catch(() => undefined),
    resumePath === steps.checkSendCode.path
      ? import('./services/codeDraftReader').then(({ readCodeDraft }) => readCodeDraft(deps.env.tabStorage, objectOID)).catch(() => null)
      : null,
  ]);
  return { resumeAfterReload, codeDraft };
}

