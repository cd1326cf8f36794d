/**
 * A docket number in the form used for matching: lower case, no office code, no judge initials
 * or defendant suffix, no zero padding. "1:20-cv-00572-WS-MU" and "20-CV-572" both give
 * "20-cv-572". CM/ECF numbers cases per district, year and type, so the office code (the
 * division) adds nothing to tell cases apart, and notices and firms' records disagree on it.
 */
export function normaliseCaseNumber(raw: string): string {
  const compact = raw.trim().toLowerCase().replace(/\s+/g, "");
  const federal = compact.match(/^(?:(\d+):)?(\d{2,4})-([a-z]{1,4})-(\d{1,6})/);
  if (federal) {
    const [, , year, type, seq] = federal;
    return `${year}-${type}-${Number(seq)}`;
  }
  const plain = compact.match(/^(\d{2,4})-(\d{1,6})$/);
  if (plain) return `${plain[1]}-${Number(plain[2])}`;
  return compact;
}
