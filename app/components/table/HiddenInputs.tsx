/** Query values a GET form must carry along, as hidden inputs. */
export function HiddenInputs({ params, omit = () => false }: { params: URLSearchParams; omit?: (key: string) => boolean }) {
  return (
    <>
      {[...params]
        .filter(([key]) => !omit(key))
        .map(([key, value]) => (
          <input key={key} type="hidden" name={key} value={value} />
        ))}
    </>
  );
}
