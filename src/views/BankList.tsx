import { useActorRef } from '@xstate/react';
import { useSelector } from './useSelector';
import { useId, useMemo, useState, type ReactNode } from 'react';
import { defineBankChoice, type BankListDependencies } from '../actors/bankChoice';
import type { BankChoiceActor } from '../machines/bankChoice';
import type { Platform } from '../services/environment';
import { bankListMessages as t } from '../services/bankListMessages';
import { bankAppHref, findBanks, initialsOf, leadingCount, tileOf, webClientHref, type SbpBank } from '../services/sbpBanks';

/** From this many banks on, the list gets a search field (NSPK's list has about two hundred). */
export const SEARCH_FROM = 10;

interface BankListProps {
  dependencies: BankListDependencies;
  /** The QR's payload: the link every bank opens, and 'Другой банк' itself. */
  payload: string;
  /** The heading that names the list: an id on the page (the phone's step title), or a heading of its own (desktop). */
  labelledBy?: string;
  heading?: string;
  /** What stands in when the list cannot be loaded: the plain bank-app link. */
  fallback: ReactNode;
}

/**
 * The banks to open the payment in: the bank this browser paid with last, marked, then the six most used,
 * then 'Все банки' by name; a search field with a live count; 'Другой банк' for the plain payload link. Each bank is
 * a link the device opens in the bank's app; a web client is offered beside it. Tapping a bank tells
 * the machine, which remembers it on this device. The list's machine is created here, where the step's chunk mounts
 * it, with the effects the composition root handed over.
 */
export function BankList({ dependencies, payload, labelledBy, heading, fallback }: BankListProps) {
  const [{ logic, input }] = useState(() => defineBankChoice(dependencies));
  const actor = useActorRef(logic, { input });
  const view = useSelector(actor, (state) => (state.hasTag('list') ? 'list' : state.hasTag('unavailable') ? 'unavailable' : 'loading'));
  const headingId = useId();

  if (view === 'unavailable') return <>{fallback}</>;
  return (
    <div className="bank-choice">
      {heading && (
        <h2 id={headingId} className="section-title">
          {heading}
        </h2>
      )}
      {view === 'loading' ? <Loading /> : <Banks actor={actor} payload={payload} labelledBy={heading ? headingId : labelledBy} />}
    </div>
  );
}

/** Rows in the shape of the list while it loads, so nothing jumps when it arrives. */
function Loading() {
  return (
    <div className="bank-skeleton">
      <p className="visually-hidden" role="status">
        {t.loadingBanks}
      </p>
      {Array.from({ length: 6 }, (_, row) => (
        <span key={row} aria-hidden="true" />
      ))}
    </div>
  );
}

function Banks({ actor, payload, labelledBy }: { actor: BankChoiceActor; payload: string; labelledBy: string | undefined }) {
  const banks = useSelector(actor, (state) => state.context.banks);
  const { lastUsedBankId, platform } = useSelector(actor, (state) => state.context);
  // The search text and the unfolded list are the payer's view of the list, not steps of a flow.
  const [query, setQuery] = useState('');
  const [allShown, setAllShown] = useState(false);
  const searchId = useId();
  const countId = useId();
  const restId = useId();

  const searching = query.trim() !== '';
  const found = useMemo(() => (searching ? findBanks(banks, query) : banks), [banks, query, searching]);
  const leading = leadingCount(banks, lastUsedBankId);
  const row = (bank: SbpBank) => (
    <BankRow key={bank.id} bank={bank} payload={payload} platform={platform} lastUsed={bank.id === lastUsedBankId} onChoose={() => actor.send({ type: 'bank.choose', id: bank.id })} />
  );

  return (
    <>
      {banks.length >= SEARCH_FROM && (
        <div className="bank-search">
          <label htmlFor={searchId} className="visually-hidden">
            {t.searchLabel}
          </label>
          <input
            id={searchId}
            type="search"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            placeholder={t.searchPlaceholder}
            autoComplete="off"
            enterKeyHint="search"
            aria-describedby={countId}
          />
          {/* Always in the page, so a screen reader hears every new count as the payer types. */}
          <p id={countId} className="bank-count" role="status">
            {searching ? (found.length > 0 ? t.found(found.length) : t.notFound) : ''}
          </p>
        </div>
      )}
      {searching ? (
        found.length > 0 && (
          <ul className="bank-list" aria-label={t.foundBanks}>
            {found.map(row)}
          </ul>
        )
      ) : (
        <>
          <ul className="bank-list" aria-labelledby={labelledBy}>
            {banks.slice(0, leading).map(row)}
          </ul>
          {banks.length > leading && (
            <>
              <button type="button" className="bank-more" aria-expanded={allShown} aria-controls={restId} onClick={() => setAllShown((shown) => !shown)}>
                {allShown ? t.hideAll : t.showAll(banks.length - leading)}
              </button>
              <ul id={restId} className="bank-list" aria-label={t.allBanks} hidden={!allShown}>
                {allShown && banks.slice(leading).map(row)}
              </ul>
            </>
          )}
        </>
      )}
      {/* The payload itself: the phone offers the bank apps it has ('Открыть приложение банка'). */}
      <div className="bank-row bank-other">
        <a className="bank" href={payload}>
          <span className="bank-mark bank-mark-other" aria-hidden="true">
            …
          </span>
          <span className="bank-text">
            <span className="bank-name">{t.otherBank}</span>
            <span className="bank-note">{t.otherBankNote}</span>
          </span>
        </a>
      </div>
    </>
  );
}

interface BankRowProps {
  bank: SbpBank;
  payload: string;
  platform: Platform;
  lastUsed: boolean;
  onChoose: () => void;
}

/**
 * One bank: the row's wide part opens its app (the logo, the name and the chevron are that one link, whose name is the
 * bank's); a web client is a separate control at the row's end, framed as a button, so a tap on the row never opens a
 * website instead of the app.
 */
function BankRow({ bank, payload, platform, lastUsed, onChoose }: BankRowProps) {
  const web = webClientHref(bank, payload);
  return (
    <li className={lastUsed ? 'bank-row is-last-used' : 'bank-row'}>
      <a className="bank" href={bankAppHref(bank, payload, platform)} onClick={onChoose}>
        <BankMark bank={bank} />
        <span className="bank-text">
          <span className="bank-name">{bank.name}</span>
          {lastUsed && <span className="bank-note">{t.lastUsed}</span>}
        </span>
      </a>
      {web && (
        <a className="bank-web" href={web} target="_blank" rel="noopener noreferrer" onClick={onChoose}>
          <span className="visually-hidden">{bank.name}, </span>
          {t.webClient}
          <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
            <path d="M6 3h7v7M13 3L4 12" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
          <span className="visually-hidden"> {t.newTab}</span>
        </a>
      )}
    </li>
  );
}

/**
 * The bank's initials on a calm tile, with its logo laid over them once (and only if) the image arrives: a logo
 * that is missing or broken leaves the initials, and the tile's fixed size keeps the row as it is either way.
 */
function BankMark({ bank }: { bank: SbpBank }) {
  const [logo, setLogo] = useState<'loading' | 'shown' | 'failed'>('loading');
  return (
    <span className={`bank-mark tile-${tileOf(bank.id)}`} aria-hidden="true">
      {initialsOf(bank.name)}
      {bank.logo && logo !== 'failed' && (
        <img
          className={logo === 'shown' ? 'bank-logo is-shown' : 'bank-logo'}
          src={bank.logo}
          alt=""
          width={40}
          height={40}
          loading="lazy"
          decoding="async"
          onLoad={() => setLogo('shown')}
          onError={() => setLogo('failed')}
        />
      )}
    </span>
  );
}
