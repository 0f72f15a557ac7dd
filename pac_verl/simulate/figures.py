"""Figures for a simulation, drawn by the report's own figure functions (``pac_verl.report``)."""

from __future__ import annotations

from pac_verl.errors import UserError


def draw_figures(all_results, fig_dir, log_dir) -> str:
    """Draw the report's validation curves and per-arm heatmaps for the simulated runs."""
    if log_dir is None:
        raise UserError("--figures needs the run logs: drop --no-logs")
    raise UserError(
        "--figures: the report's figure functions (pac_verl.report) are not available in this "
        f"version; draw them later with: pac-verl report {log_dir} --figures {fig_dir}"
    )
