import { useSelector } from './useSelector';
import type { ReactNode } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { CheckoutActor } from '../machines/checkout';
import type { codeFlowMachine, CodeProblem } from '../machines/codeFlow';
import { stepMessages } from '../services/stepMessages';
import type { CodePurpose, CodeRequest } from '../services/types';
import { StepSection } from './StepSection';

export type CodeFlowActor = ActorRefFrom<typeof codeFlowMachine>;

/** The send-code flow the checkout runs for the step that asked for a code (and for its code screen). */
export const useCodeFlow = (actor: CheckoutActor): CodeFlowActor | undefined => useSelector(actor, (state) => state.children.code);

/** What the step's form had before a reload whose code ran out, for its first values; null: an empty form. */
export function formDraftOf<P extends CodePurpose>(flow: CodeFlowActor, purpose: P): Extract<CodeRequest, { purpose: P }> | null {
  const draft = flow.getSnapshot().context.draft;
  return draft?.purpose === purpose ? (draft as Extract<CodeRequest, { purpose: P }>) : null;
}

/**
 * What the payer reads for a problem of the code flow, from the catalogue; null when the robot check is what to do:
 * its own notice says so (FlowCaptcha), one instruction rather than two.
 */
export function codeProblemText(problem: CodeProblem): string | null {
  switch (problem.kind) {
    case 'not sent':
      // The wait the server named, in the catalogue's words, else a short refusal: the payer must learn why nothing came.
      return problem.secondsLeft !== null && problem.secondsLeft > 0 ? stepMessages.code.resendIn(problem.secondsLeft) : stepMessages.code.sendRefused;
    case 'robot check':
      // The rejected code before the check still says what happened; the check's own notice says what to do.
      return problem.rejected ? stepMessages.code.rejected : null;
    case 'sms failed':
      return stepMessages.code.smsFailed;
    case 'code incomplete':
      return stepMessages.code.incomplete;
    case 'code rejected':
      // 'Ошибка проверки кода' as it is; the tries left, when the server told them, are a line of their own.
      return stepMessages.code.rejected;
    case 'finish failed':
      return stepMessages.code.finishFailed;
  }
}

/** The line under a rejected code's 'Ошибка проверки кода': the tries it still takes, when the server told them. */
export function triesLeftText(problem: CodeProblem): string | null {
  const triesLeft = problem.kind === 'code rejected' ? problem.triesLeft : problem.kind === 'robot check' ? (problem.rejected?.triesLeft ?? null) : null;
  if (triesLeft === null) return null;
  return triesLeft > 0 ? stepMessages.code.triesLeft(triesLeft) : stepMessages.code.noTriesLeft;
}

/** The flow's problem as text, or null. */
export const useCodeProblem = (flow: CodeFlowActor) => useSelector(flow, (state) => (state.context.problem ? codeProblemText(state.context.problem) : null));

/** The tries a rejected code still takes, as text, or null. */
export const useTriesLeft = (flow: CodeFlowActor) => useSelector(flow, (state) => (state.context.problem ? triesLeftText(state.context.problem) : null));

/** A step whose form asks for a code (forgot password, register): its title, then the form once the flow runs. */
export function CodeStep({ actor, title, children }: { actor: CheckoutActor; title: string; children: (flow: CodeFlowActor) => ReactNode }) {
  const flow = useCodeFlow(actor);
  return <StepSection title={title}>{flow && children(flow)}</StepSection>;
}
