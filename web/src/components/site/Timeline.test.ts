/** California's timeline page (issue 24): the rule file's dates in calendar order, each in the page's language. */
import { describe, expect, it } from 'vitest';
import { monthDay, timelineEntries } from './Timeline.js';

describe('timeline entries', () => {
  it('puts deadlines and due dates together in calendar order and skips a date it cannot read', () => {
    const l = (en: string) => ({ en, es: en });
    const e = timelineEntries({
      deadlines: [
        { date: '07-02', label: l('appeals open') },
        { date: '01-01', label: l('lien date') },
        { date: 'soon', label: l('bad') },
      ],
      due_dates: [
        { date: '12-10', label: l('first') },
        { date: '04-10', label: l('second') },
      ],
    });
    expect(e.map((x) => [x.date, x.kind])).toEqual([
      ['01-01', 'deadline'],
      ['04-10', 'due'],
      ['07-02', 'deadline'],
      ['12-10', 'due'],
    ]);
    expect(timelineEntries(undefined)).toEqual([]);
  });
  it('writes a month and day in each language', () => {
    expect(monthDay('12-10', 'en')).toBe('December 10');
    expect(monthDay('04-10', 'es')).toBe('10 de abril');
  });
});
