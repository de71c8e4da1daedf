/** Markdown for the generated parts of `docs/api.md`: aligned tables, and sections between markers. */

/** A table with its columns padded, so that the file reads as well as it renders. */
export const table = (header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>): string => {
  const escaped = rows.map((row) => row.map((cell) => cell.replaceAll("|", "\\|")))
  const widths = header.map((title, i) => Math.max(title.length, 3, ...escaped.map((row) => (row[i] ?? "").length)))
  const line = (cells: ReadonlyArray<string>) =>
    `| ${cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(" | ")} |`
  return [line(header), line(widths.map((width) => "-".repeat(width))), ...escaped.map(line)].join("\n")
}

export const code = (text: string | number): string => `\`${text}\``

const markers = (name: string) => [`<!-- generated:${name} -->`, `<!-- /generated:${name} -->`] as const

/** The document with each named section's text put between its markers; a section without markers is an error. */
export const withSections = (document: string, sections: Readonly<Record<string, string>>): string =>
  Object.entries(sections).reduce((text, [name, body]) => {
    const [open, close] = markers(name)
    const start = text.indexOf(open)
    const end = text.indexOf(close)
    if (start === -1 || end < start) throw new Error(`docs/api.md has no ${open} ... ${close} section`)
    return `${text.slice(0, start + open.length)}\n${body}\n${text.slice(end)}`
  }, document)
