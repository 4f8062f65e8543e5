import { useRef, useState, type KeyboardEvent } from 'react';
import { formatDay, formatMoney, kopecksOf } from '../services/format';
import { deskMessages } from '../services/messages';
import type { Figures } from '../services/types';

const m = deskMessages.payments;

/**
 * The last 30 days as bars, usable without a mouse: the chart is one stop of Tab, the arrows (and Home, End) move from
 * day to day, and the day chosen is said in words beside it (a live line a screen reader reads). The table beside the
 * chart has the same numbers.
 */
export function DayChart({ days }: { days: Figures['days'] }) {
  const [chosen, setChosen] = useState(days.length - 1);
  const bars = useRef<(HTMLButtonElement | null)[]>([]);
  const largest = Math.max(1, ...days.map((day) => kopecksOf(day.sum)));
  const move = (to: number) => {
    const next = Math.min(days.length - 1, Math.max(0, to));
    setChosen(next);
    bars.current[next]?.focus();
  };
  const onKey = (event: KeyboardEvent) => {
    const keys: Record<string, number> = { ArrowLeft: chosen - 1, ArrowRight: chosen + 1, Home: 0, End: days.length - 1 };
    if (event.key in keys) {
      event.preventDefault();
      move(keys[event.key]!);
    }
  };
  const day = days[chosen];
  const words = (index: number) => {
    const d = days[index]!;
    return `${formatDay(d.date, true)}: ${formatMoney(d.sum)}, ${m.count(d.count)}`;
  };
  return (
    <div className="chart">
      <p className="muted" id="chart-hint">
        {m.chartHint}
      </p>
      <div className="chart-bars" role="group" aria-label={m.chart} aria-describedby="chart-hint" onKeyDown={onKey}>
        {days.map((d, i) => {
          const share = kopecksOf(d.sum) / largest;
          return (
            <button
              key={d.date}
              type="button"
              ref={(element) => void (bars.current[i] = element)}
              className={`chart-bar${d.count === 0 ? ' empty' : ''} h-${Math.round(share * 20) * 5}`}
              tabIndex={i === chosen ? 0 : -1}
              aria-label={words(i)}
              aria-pressed={i === chosen}
              onClick={() => move(i)}
            />
          );
        })}
      </div>
      <div className="chart-axis" aria-hidden="true">
        <span>{days[0] ? formatDay(days[0].date) : ''}</span>
        <span>{days.at(-1) ? formatDay(days.at(-1)!.date) : ''}</span>
      </div>
      <p className="chart-readout" aria-live="polite">
        {day ? words(chosen) : ''}
      </p>
    </div>
  );
}
