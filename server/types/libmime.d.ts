// The one function of libmime the inbox uses (the package ships no types).
declare module "libmime" {
  const libmime: { decodeWords(value: string): string };
  export default libmime;
}
