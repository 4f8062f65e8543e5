/** The bank-app pay widget client, loaded on demand; see client.ts. */
export { createBankWidget, HELPER_TAB_FEATURES, type BankWidgetClient, type WidgetReport, type WidgetRequest, type WidgetWindow } from './client';
export { BANK_HOSTS, familyOf, widgetHost } from './hosts';
export { decodeParameters, encodeParameters, returnUrls, widgetParameters, widgetUrl, type WidgetParameters } from './params';
export { FRAME_SANDBOX } from './overlay';
export { bankWidgetOnDemand, type BankWidgetOnDemand } from './onDemand';
