import { encode } from 'uqr';

/** A QR code drawn in the page from the text (nothing leaves the browser): one SVG path of the dark modules. */
export function QrCode({ text, label }: { text: string; label: string }) {
  const { data } = encode(text, { ecc: 'M', border: 2 });
  let d = '';
  data.forEach((row, y) => row.forEach((dark, x) => dark && (d += `M${x} ${y}h1v1h-1z`)));
  return (
    <div class="qr">
      <svg role="img" aria-label={label} viewBox={`0 0 ${data.length} ${data.length}`} shape-rendering="crispEdges">
        <rect width={data.length} height={data.length} fill="#fff" />
        <path d={d} fill="#000" />
      </svg>
    </div>
  );
}
