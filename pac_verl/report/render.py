"""Tables as Markdown or LaTeX, in the paper's layout: one row per method, backbones stacked.

Cells are ``mean ± std`` over seeds (sample std); a cell on fewer seeds than its section has
says so (``n=2``); a cell with no value is ``-``. As in the paper, the best mean of each column
is bold and the second best underlined (LaTeX only), the single-task reference (ST) excluded.
"""

from __future__ import annotations

from pac_verl.report.tables import BudgetResult, Cell, EfficiencyResult, TableResult

NO_VALUE = "-"


def _number(cell: Cell | None, fmt: str, n_seeds: int) -> str:
    if cell is None or cell.mean is None:
        return NO_VALUE
    pm = r" \pm " if fmt == "latex" else " ± "
    text = f"{cell.mean:.3f}" + (f"{pm}{cell.std:.3f}" if cell.std is not None else "")
    if cell.n < n_seeds:
        text += f" (n={cell.n})" if fmt == "md" else rf"\,(n={cell.n})"
    return f"${text}$" if fmt == "latex" else text


def _ranks(values: list[float | None]) -> dict[int, int]:
    """Row index -> 1 (best) or 2 (second), by the mean as printed (3 decimals); ties share."""
    present = sorted({round(v, 3) for v in values if v is not None}, reverse=True)
    out = {}
    for i, v in enumerate(values):
        if v is not None and round(v, 3) in present[:2]:
            out[i] = present.index(round(v, 3)) + 1
    return out


def _decorate(text: str, rank: int | None, fmt: str) -> str:
    if text == NO_VALUE or rank is None:
        return text
    if fmt == "latex":
        return rf"\textbf{{{text}}}" if rank == 1 else rf"\underline{{{text}}}"
    return f"**{text}**" if rank == 1 else text


def render_table(result: TableResult, fmt: str = "md") -> str:
    spec = result.spec
    headers = [c.label for c in spec.columns] + (["Avg."] if spec.average else [])
    ncol = 1 + len(headers)
    steps = ", ".join(f"{s.backbone}: step {s.step}" for s in result.sections)
    title = (f"Table {spec.number}: " if spec.number else "") + spec.title
    caption = f"{title}. Final validation ({steps}), mean ± std over seeds."
    body: list[list[str]] = []
    for section in result.sections:
        body.append([f"**{section.backbone}**" if fmt == "md" else
                     rf"\multicolumn{{{ncol}}}{{l}}{{\textbf{{{section.backbone}}}}}"])  # fmt: skip
        n_seeds = len(section.seeds)
        columns = [[*row.cells, *([row.average] if spec.average else [])] for row in section.rows]
        ranked = [i for i, row in enumerate(section.rows) if row.method != "single"]
        ranks = []
        for j in range(len(headers)):
            r = _ranks([columns[i][j].mean if columns[i][j] else None for i in ranked])
            ranks.append({ranked[k]: v for k, v in r.items()})
        for i, row in enumerate(section.rows):
            cells = [_decorate(_number(c, fmt, n_seeds), ranks[j].get(i), fmt)
                     for j, c in enumerate(columns[i])]  # fmt: skip
            label = row.label if fmt == "md" else row.label.replace("&", r"\&")
            body.append([label, *cells])
    if fmt == "latex":
        return _latex(spec, headers, body, caption)
    lines = [f"### {caption}", "", "| " + " | ".join([spec.row_header, *headers]) + " |"]
    lines.append("|" + "---|" * ncol)
    for row in body:
        lines.append("| " + " | ".join(row + [""] * (ncol - len(row))) + " |")
    return "\n".join(lines)


def _latex(spec, headers: list[str], body: list[list[str]], caption: str) -> str:
    ncol = 1 + len(headers)
    esc = [h.replace("&", r"\&") for h in headers]
    out = [r"\begin{table*}[t]", r"\centering", r"\small",
           r"\begin{tabular}{l" + "c" * len(headers) + "}", r"\toprule"]  # fmt: skip
    if spec.groups:
        group_row, rules, col = [""], [], 2
        for label, width in spec.groups:
            group_row.append(rf"\multicolumn{{{width}}}{{c}}{{\textbf{{{label}}}}}")
            rules.append(rf"\cmidrule(lr){{{col}-{col + width - 1}}}")
            col += width
        group_row += [""] * (ncol - 1 - sum(w for _, w in spec.groups))
        out += [" & ".join(group_row) + r" \\", "".join(rules)]
    out.append(" & ".join([rf"\textbf{{{spec.row_header}}}", *(rf"\textbf{{{h}}}" for h in esc)])
               + r" \\")  # fmt: skip
    for row in body:
        if len(row) == 1:
            out += [r"\midrule", row[0] + r" \\"]
        else:
            out.append(" & ".join(row) + r" \\")
    caption = caption.replace("±", r"$\pm$").replace("&", r"\&")
    out += [r"\bottomrule", r"\end{tabular}", rf"\caption{{{caption}}}", r"\end{table*}"]
    return "\n".join(out)


def render_efficiency(results: list[EfficiencyResult], label, fmt: str = "md") -> str:
    """Sample efficiency per backbone; ``label`` maps a method to its display name."""
    blocks = []
    for res in results:
        ref = label(res.reference)
        at = "never" if res.reference_step is None else f"step {res.reference_step}"
        head = (
            f"Sample efficiency, {res.backbone}: steps for the seed-averaged validation average "
            f"to reach {ref}'s final average {res.target:.3f} ({ref} itself: {at})"
        )
        rows = [["Method", "final avg", f"first step >= {res.target:.3f}", "speed-up"]]
        for e in res.rows:
            rows.append([
                label(e.method),
                f"{e.final:.3f}",
                "not reached" if e.step is None else str(e.step),
                NO_VALUE if e.ratio is None else f"{e.ratio:.2f}x",
            ])  # fmt: skip
        if fmt == "latex":
            lines = [f"% {head}", r"\begin{tabular}{lccc}", r"\toprule"]
            lines += [" & ".join(r) + r" \\" for r in rows[:1]] + [r"\midrule"]
            lines += [" & ".join(c.replace("&", r"\&") for c in r) + r" \\" for r in rows[1:]]
            lines += [r"\bottomrule", r"\end{tabular}"]
        else:
            lines = [f"#### {head}", ""] + ["| " + " | ".join(r) + " |" for r in rows[:1]]
            lines += ["|---|---|---|---|"] + ["| " + " | ".join(r) + " |" for r in rows[1:]]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def render_budget(results: list[BudgetResult], label, fmt: str = "md") -> str:
    """Each method's share of the training prompts per arm (mean ± std over seeds)."""
    blocks = []
    for res in results:
        head = (f"Budget, {res.backbone}: share of the training prompts per arm over the whole "
                "run, mean ± std over seeds")  # fmt: skip
        header = ["Method", *res.arms]
        rows = [[label(m), *(_number(c, fmt, len(res.seeds)) for c in cells)]
                for m, cells in res.rows]  # fmt: skip
        if fmt == "latex":
            lines = [f"% {head}", r"\begin{tabular}{l" + "c" * len(res.arms) + "}", r"\toprule",
                     " & ".join(header) + r" \\", r"\midrule"]  # fmt: skip
            lines += [" & ".join(c.replace("&", r"\&") for c in r) + r" \\" for r in rows]
            lines += [r"\bottomrule", r"\end{tabular}"]
        else:
            lines = [f"#### {head}", "", "| " + " | ".join(header) + " |",
                     "|" + "---|" * len(header)]  # fmt: skip
            lines += ["| " + " | ".join(r) + " |" for r in rows]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)
