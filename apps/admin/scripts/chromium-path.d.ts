/** CHROMIUM_PATH, else Debian's chromium when installed; undefined when there is none. */
export function chromiumPath(): string | undefined;
