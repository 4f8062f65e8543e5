import type { Dependencies } from './actors/dependencies';
import type { ResumeAfterReload } from './machines/checkoutResume';
import type { CheckoutDraft } from './services/checkoutDraft';
import type { CodeRequest } from './services/types';

export interface ReloadParts {
  resumeAfterReload?: ResumeAfterReload;
  codeDraft: CodeRequest | null;
  draft: CheckoutDraft | null;
}

/**
 * A reload on a step: resuming it (machines/checkoutResume.ts) and this tab's drafts of the checkout and of the code
 * step (services/draftReader.ts) are chunks of their own, loaded only then, so that no first visit carries them.
 * Failing to load either only means not resuming: the main route, with nothing kept.
 */
export async function reloadParts(resumePath: string, deps: Dependencies, objectOID: string): Promise<ReloadParts> {
  const none = { codeDraft: null, draft: null };
  const [resumeAfterReload, drafts] = await Promise.all([
    import('./machines/checkoutResume').then(({ resumeAfterReload }) => resumeAfterReload).catch(() => undefined),
    import('./services/draftReader')
      .then(({ readCodeDraft, readCheckoutDraft }) => ({ codeDraft: readCodeDraft(deps.env.tabStorage, objectOID), draft: readCheckoutDraft(deps.env.tabStorage, objectOID) }))
      .catch(() => none),
  ]);
  return { resumeAfterReload, ...drafts };
}
