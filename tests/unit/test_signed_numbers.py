"""A score or a balance written with its sign, once for the explanations, the night's board and
the table's first paint (``i18n.signed``)."""

from service.i18n import number, signed


def test_gains_carry_a_plus_losses_a_real_minus_sign_and_nothing_is_bare_zero() -> None:
    assert signed(7) == "+7"
    assert signed(-7) == "\u22127"
    assert signed(0) == "0"


def test_without_a_language_the_digits_are_plain() -> None:
    assert signed(-12345) == "\u221212345"


def test_with_a_language_thousands_are_grouped_as_the_language_groups_them() -> None:
    assert signed(1234, "en") == "+1,234"
    assert signed(-1234, "de") == "\u22121.234"
    assert signed(999, "de") == "+999"
    # Spanish leaves four digits ungrouped (CLDR's minimum grouping), as the browser's Intl does.
    assert signed(-1234, "es") == "\u22121234"
    assert signed(-12345, "es") == "\u221212.345"


def test_numbers_are_grouped_as_the_browsers_intl_groups_them() -> None:
    # What Chromium's Intl.NumberFormat writes (node 20: new Intl.NumberFormat(lang).format(n)).
    assert [number(n, "en") for n in (999, 1234, 12345)] == ["999", "1,234", "12,345"]
    assert [number(n, "de") for n in (999, 1234, 12345)] == ["999", "1.234", "12.345"]
    assert [number(n, "es") for n in (999, 1234, 12345)] == ["999", "1234", "12.345"]
