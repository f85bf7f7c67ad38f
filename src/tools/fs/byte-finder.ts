/**
 * Bytes from the most to the least frequent in source code and prose (an estimate, as memchr's and ripgrep's
 * frequency tables are). A byte missing here (other control bytes, bytes of non-ASCII characters) ranks as
 * rarer than all of them.
 */
const bytesByFrequency =
  ' e\nt\tarionslcdu.hpm_f(),g=b;y:w"\'/-x{}vk[]0123*>1<TSEARIC2NL$DOP5M!F48B3#U69+H7&|G@%W\\VjzKYq?JXZQ^~`';

const rankOf = new Uint8Array(256);
for (let index = 0; index < bytesByFrequency.length; index += 1) {
  rankOf[bytesByFrequency.charCodeAt(index)] = bytesByFrequency.length - index;
}

/** Above this rank a byte is too common to look for first: the needle is searched whole. */
const commonRank = rankOf[' '.charCodeAt(0)]! - 12;
/**
 * Looking for the rare byte pays while it is rare in the text searched: a candidate costs about what a whole
 * search spends on a hundred bytes. Once enough candidates were seen, closer than this on average, the finder
 * searches the needle whole from then on.
 */
const candidatesBeforeJudging = 256;
const smallestAverageGap = 128;

/** Finds a byte string in a buffer from an offset; -1 when absent. */
export type ByteFinder = (haystack: Buffer, from: number) => number;

/**
 * A finder that looks for the needle's rarest byte with `indexOf(byte)` (memchr: many times faster than a
 * whole-needle search on text) and checks the needle around each place it finds, as memchr's and ripgrep's
 * literal finders do. A needle made only of common bytes is searched whole from the start; one whose rare
 * byte turns out to be common in the text searched is searched whole once that is seen.
 */
export function createByteFinder(needle: Buffer): ByteFinder {
  const whole: ByteFinder = (haystack, from) => haystack.indexOf(needle, from);
  if (needle.length < 2) return whole;
  let offset = 0;
  for (let index = 1; index < needle.length; index += 1) {
    if (rankOf[needle[index]!]! < rankOf[needle[offset]!]!) offset = index;
  }
  const rare = needle[offset]!;
  if (rankOf[rare]! > commonRank) return whole;
  const length = needle.length;
  let candidates = 0;
  let bytesCovered = 0;
  let wholeFromNowOn = false;
  return (haystack, from) => {
    if (wholeFromNowOn) return haystack.indexOf(needle, from);
    for (let at = haystack.indexOf(rare, from + offset); at !== -1; at = haystack.indexOf(rare, at + 1)) {
      const start = at - offset;
      candidates += 1;
      if (
        start + length <= haystack.length &&
        haystack.compare(needle, 0, length, start, start + length) === 0
      ) {
        bytesCovered += at - from;
        return start;
      }
      if (
        candidates >= candidatesBeforeJudging &&
        bytesCovered + (at - from) < candidates * smallestAverageGap
      ) {
        wholeFromNowOn = true;
        return haystack.indexOf(needle, start + 1);
      }
    }
    bytesCovered += Math.max(0, haystack.length - from);
    return -1;
  };
}
