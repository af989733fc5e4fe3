"""``validate(deck, fmt, pool) -> Report``: every violation, never just the first.

Order of work: resolve every entry against the card pool; map the deck's sections onto
the format's (by alias); put entries that were placed only for lack of a header into
the one section their type fits; let size-adjusting rules run; check section sizes and
types; run every rule; add parse problems and card-data warnings; drop duplicate
limit violations (a card over both its restricted limit and a general limit is
reported once, under the stricter rule).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

from deckcli.cards.pool import CardPool, PoolCard
from deckcli.decks.model import Deck
from deckcli.rules.formats import Format
from deckcli.rules.kinds import Resolved, RuleBase, RuleContext
from deckcli.rules.report import Report, Violation

_FLAG_CODES = {"demo": "demo-card", "provisional": "provisional-card", "incomplete": "incomplete-card"}
_FLAG_TEXT = {
    "demo": ("is a demo card made up by deckcli, not a real card", "are demo cards made up by deckcli"),
    "provisional": ("has partly guessed data (provisional)", "have partly guessed data (provisional)"),
    "incomplete": ("lacks stats in its source data (incomplete)", "lack stats in their source data (incomplete)"),
}
_LIMIT_CODES = ("copy-limit", "restricted")
_DEDUPE_CODES = frozenset((*_LIMIT_CODES, "combined-copies", "wrong-section"))


def map_sections(fmt: Format, deck: Deck) -> dict[str, str | None]:
    """Deck section id -> format section id (None: the format has no such section)."""
    ids = {s.id for s in fmt.sections}
    mapping: dict[str, str | None] = {}
    for section in deck.sections:
        if section in ids:
            mapping[section] = section
            continue
        mapping[section] = next((s.id for s in fmt.sections if section in s.aliases), None)
    return mapping


@dataclass(frozen=True)
class _Plan:
    """What validation precomputes once per format."""

    titles: dict[str, str]
    #: section id -> allowed card types (None = any)
    allowed: dict[str, frozenset[str] | None]
    #: card type -> the one section other than main and side that takes it; header-less
    #: entries of a type the main section refuses go there
    homes: dict[str, str]
    size_rules: tuple[RuleBase, ...]
    other_rules: tuple[RuleBase, ...]
    section_list: str


_plans: dict[int, tuple[Format, _Plan]] = {}


def _plan(fmt: Format) -> _Plan:
    cached = _plans.get(id(fmt))
    # The format is kept in the cache entry, so its id cannot be reused while cached.
    plan = cached[1] if cached is not None and cached[0] is fmt else None
    if plan is None:
        homes: dict[str, str] = {}
        for spec in fmt.sections:
            if spec.id in ("main", "side") or spec.types is None:
                continue
            for card_type in spec.types:
                homes[card_type] = spec.id if card_type not in homes else ""
        main = fmt.section("main")
        main_types = set(main.types) if main and main.types is not None else None
        plan = _Plan(
            fmt.titles(),
            {s.id: frozenset(s.types) if s.types is not None else None for s in fmt.sections},
            {t: h for t, h in homes.items() if h and main_types is not None and t not in main_types},
            tuple(r for r in fmt.rules if r.adjusts_sizes),
            tuple(r for r in fmt.rules if not r.adjusts_sizes),
            ", ".join(s.title for s in fmt.sections),
        )
        _plans[id(fmt)] = (fmt, plan)
    return plan


def _dedupe(violations: list[Violation]) -> list[Violation]:
    """One violation per problem.

    A card over both its restricted limit and a general limit is reported once, under
    the stricter rule (three Veton: one violation, not two); a Main + Side warning for
    a card already over a limit in one section is dropped (the error says it); a card
    whose type keeps it out of a section is reported wrong-section once, even when a
    rule (exact contents) also rejects it.
    """
    if not any(v.code in _DEDUPE_CODES for v in violations):
        return violations
    best: dict[tuple[str | None, str | None], Violation] = {}
    over_limit: set[str | None] = set()
    for violation in violations:
        if violation.code in _LIMIT_CODES and violation.severity == "error":
            key = (violation.card, violation.section)
            current = best.get(key)
            if current is None or (violation.allowed or 0) < (current.allowed or 0):
                best[key] = violation
            over_limit.add(violation.card)
    keep = set(map(id, best.values()))
    wrong_sections: set[tuple[str | None, str | None, int | None]] = set()
    result: list[Violation] = []
    for violation in violations:
        code = violation.code
        if code in _LIMIT_CODES and violation.severity == "error" and id(violation) not in keep:
            continue
        if code == "combined-copies" and violation.card in over_limit:
            continue
        if code == "wrong-section":
            where = (violation.section, violation.card, violation.line)
            if where in wrong_sections:
                continue
            wrong_sections.add(where)
        result.append(violation)
    return result


def validate(
    deck: Deck,
    fmt: Format,
    pool: CardPool,
    on: dt.date | None = None,
    *,
    format_source: str = "",
) -> Report:
    """Check ``deck`` against ``fmt`` using the cards of ``pool``; report every problem."""
    on = on or dt.date.today()
    plan = _plan(fmt)
    violations: list[Violation] = [
        Violation(
            "parse-error",
            (f"line {p.line}: " if p.line else "") + f"{p.message}: {p.text!r}",
            "error",
            None,
            None,
            p.line or None,
            rule="decklist syntax",
        )
        for p in deck.problems
    ]
    sections: dict[str, list[Resolved]] = {}
    sizes: dict[str, int] = {}
    flagged: dict[str, PoolCard] = {}
    mapping = map_sections(fmt, deck)
    find = pool.find
    homes = plan.homes
    for deck_section, entries in deck.sections.items():
        target = mapping[deck_section]
        for entry in entries:
            card = find(entry.name)
            if card is None:
                suggestions = pool.suggest(entry.name)
                hint = f"; did you mean {', '.join(suggestions)}?" if suggestions else ""
                violations.append(
                    Violation(
                        "unknown-card",
                        f"no {fmt.game} card named '{entry.name}'{hint}",
                        "error",
                        target or deck_section,
                        entry.name,
                        entry.line,
                        entry.count,
                        rule="card database",
                    )
                )
            elif card.flags:
                flagged[card.key] = card
            if target is None:
                violations.append(
                    Violation(
                        "wrong-section",
                        f"{entry.name}: a {fmt.name} deck has no '{deck_section}' section",
                        "error",
                        deck_section,
                        entry.name,
                        entry.line,
                        entry.count,
                        rule=f"{plan.section_list} are its sections",
                    )
                )
                continue
            home = target
            if entry.implicit and card is not None and card.type in homes:
                home = homes[card.type]
            bucket = sections.get(home)
            if bucket is None:
                sections[home] = bucket = []
                sizes[home] = 0
            bucket.append(Resolved(entry, card))
            sizes[home] += entry.count

    ctx = RuleContext(sections, plan.titles, on)
    for rule in plan.size_rules:
        rule.check(ctx)

    for spec in fmt.sections:
        copies = sizes.get(spec.id, 0)
        low, high = spec.min, spec.max
        if spec.id in ctx.size_overrides:
            high = ctx.size_overrides[spec.id]
            low = None if low is None else min(low, high)
        if not (spec.optional and copies == 0):
            cards = f"{spec.title}: {copies} card{'' if copies == 1 else 's'}"
            if low is not None and low == high:
                if copies != low:
                    ctx.add(
                        Violation(
                            spec.size_code,
                            f"{cards}, exactly {low} required",
                            "error",
                            spec.id,
                            None,
                            None,
                            copies,
                            low,
                            spec.cite,
                        )
                    )
            else:
                if low is not None and copies < low:
                    ctx.add(
                        Violation(
                            spec.size_code,
                            f"{cards}, at least {low} required",
                            "error",
                            spec.id,
                            None,
                            None,
                            copies,
                            low,
                            spec.cite,
                        )
                    )
                if high is not None and copies > high:
                    ctx.add(
                        Violation(
                            spec.size_code,
                            f"{cards}, at most {high} allowed",
                            "error",
                            spec.id,
                            None,
                            None,
                            copies,
                            high,
                            spec.cite,
                        )
                    )
        if spec.warn_above is not None and copies > spec.warn_above:
            ctx.add(
                Violation(
                    "oversized",
                    f"{spec.title}: {copies} cards; more than {spec.warn_above} lowers the odds of "
                    "drawing your best cards",
                    "warning",
                    spec.id,
                    None,
                    None,
                    copies,
                    spec.warn_above,
                    spec.cite,
                )
            )
        allowed_types = plan.allowed[spec.id]
        if allowed_types is not None and spec.id in sections:
            for resolved in sections[spec.id]:
                card = resolved.card
                if card is not None and card.type not in allowed_types:
                    takes = ", ".join(sorted(allowed_types))
                    ctx.add(
                        Violation(
                            "wrong-section",
                            f"{card.name} is a {card.type}; the {spec.title} takes {takes} cards",
                            "error",
                            spec.id,
                            card.name,
                            resolved.entry.line,
                            resolved.entry.count,
                            None,
                            spec.cite,
                        )
                    )

    for rule in plan.other_rules:
        rule.check(ctx)

    by_flag: dict[str, list[str]] = {}
    for card in flagged.values():
        for flag in card.flags:
            by_flag.setdefault(flag, []).append(card.name)
    for flag, names in by_flag.items():
        one, many = _FLAG_TEXT[flag]
        subject = f"{names[0]} {one}" if len(names) == 1 else f"{len(names)} cards {many}: {', '.join(names)}"
        violations.append(
            Violation(
                _FLAG_CODES[flag], subject, "warning", None, names[0] if len(names) == 1 else None, rule="card database"
            )
        )
    violations.extend(ctx.violations)
    return Report(deck.label, fmt.id, _dedupe(violations), format_source, deck.source)


def _pool_counts(
    deck: Deck, fmt: Format, pool: CardPool, sections: Iterable[str]
) -> tuple[dict[str, int], dict[str, str], dict[str, int | None]]:
    """Copies of each card in ``sections``, its printed name and its first line."""
    mapping = map_sections(fmt, deck)
    wanted = set(sections)
    counts: dict[str, int] = {}
    names: dict[str, str] = {}
    lines: dict[str, int | None] = {}
    for deck_section, entries in deck.sections.items():
        if mapping.get(deck_section) not in wanted:
            continue
        for entry in entries:
            card = pool.find(entry.name)
            key = card.key if card else entry.name.casefold()
            counts[key] = counts.get(key, 0) + entry.count
            names[key] = card.name if card else entry.name
            lines.setdefault(key, entry.line)
    return counts, names, lines


def _copies(count: int) -> str:
    return f"{count} cop{'y' if count == 1 else 'ies'}"


def _section_sizes(deck: Deck, fmt: Format) -> dict[str, int]:
    mapping = map_sections(fmt, deck)
    sizes: dict[str, int] = {}
    for deck_section, entries in deck.sections.items():
        target = mapping.get(deck_section)
        if target:
            sizes[target] = sizes.get(target, 0) + sum(e.count for e in entries)
    return sizes


def validate_against(
    deck: Deck,
    registered: Deck,
    fmt: Format,
    pool: CardPool,
    on: dt.date | None = None,
    *,
    format_source: str = "",
) -> Report:
    """Is ``deck`` a legal sideboarded version of ``registered``? All problems, both kinds."""
    report = validate(deck, fmt, pool, on, format_source=format_source)
    spec = fmt.sideboarding
    if spec is None:
        report.violations.append(
            Violation(
                "side-swap",
                f"{fmt.name} has no sideboarding rules; decks must match the registration",
                "error",
                rule="format",
            )
        )
        spec_pool: list[str] = [s.id for s in fmt.sections]
        keep: list[str] = spec_pool
        cite = "format"
    else:
        spec_pool, keep, cite = spec.pool, spec.keep_sizes, spec.cite
    now, now_names, now_lines = _pool_counts(deck, fmt, pool, spec_pool)
    then, then_names, _ = _pool_counts(registered, fmt, pool, spec_pool)
    for key in sorted(set(now) | set(then)):
        have, had = now.get(key, 0), then.get(key, 0)
        name = now_names.get(key) or then_names.get(key)
        if have > had:
            where = "was not registered" if had == 0 else f"registered {had}"
            report.violations.append(
                Violation(
                    "side-swap",
                    f"{name}: {_copies(have)}, but {where}",
                    "error",
                    None,
                    name,
                    now_lines.get(key),
                    have,
                    had,
                    cite,
                )
            )
        elif have < had:
            report.violations.append(
                Violation(
                    "side-swap",
                    f"{name}: {_copies(have)}, registered {had} (cards went missing)",
                    "error",
                    None,
                    name,
                    now_lines.get(key),
                    have,
                    had,
                    cite,
                )
            )
    sizes_now, sizes_then = _section_sizes(deck, fmt), _section_sizes(registered, fmt)
    titles = fmt.titles()
    for section in keep:
        now_size, then_size = sizes_now.get(section, 0), sizes_then.get(section, 0)
        if now_size != then_size:
            report.violations.append(
                Violation(
                    "side-swap",
                    f"{titles.get(section, section)}: {now_size} cards, registered {then_size}; "
                    "swaps are one in, one out",
                    "error",
                    section,
                    None,
                    None,
                    now_size,
                    then_size,
                    cite,
                )
            )
    return report
