"""The finder's last look at a frame with no card: the table's light divided out."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from scanner.find import find_cards
from scanner.find_work import flat_work, flatten_light, make_work
from scanner.params import FindParams
from tests.scanner.test_find import best_match, card_quad, draw_card, table

PARAMS = FindParams()


def shadowed(img: npt.NDArray[np.uint8], rows: slice, factor: float) -> npt.NDArray[np.uint8]:
    """``img`` with a shadow band (every pixel times ``factor``) across the rows ``rows``."""
    out = img.astype(np.float64)
    out[rows] *= factor
    return np.clip(out, 0, 255).astype(np.uint8)


def test_a_shadow_band_on_a_light_table_falls_to_the_level_of_the_light_around_it() -> None:
    img = shadowed(table((210, 212, 214)), slice(300, 720), 0.6)
    flat = flatten_light(img, make_work(img, PARAMS), PARAMS)
    step = float(img[100:200].mean()) - float(img[450:650].mean())
    lit, shade = float(flat[50:100].mean()), float(flat[225:325].mean())  # at work scale (half)
    assert step > 60  # before: a deep step
    # the light is estimated on the lightness (L of Lab), which is not linear in the pixel
    # values it scales, so a little of the step is left
    assert abs(lit - shade) < step / 6, (step, lit, shade)
    assert flat.shape == (360, 640, 3) and flat.dtype == np.uint8


def test_a_cards_thin_outline_keeps_its_contrast_when_the_light_is_divided_out() -> None:
    img = table((210, 212, 214))
    quad = card_quad(640, 360, 180, 20)
    draw_card(img, quad, paper=214, outline=150)
    img = shadowed(img, slice(360, 720), 0.6)
    flat = flatten_light(img, make_work(img, PARAMS), PARAMS)
    # the outline's darkest point, in the shadow, against the table beside it
    x, y = np.round(quad[2] / 2.0).astype(int)  # at work scale (half)
    patch = flat[y - 3 : y + 4, x - 3 : x + 4].astype(np.float64)
    assert float(patch.max()) - float(patch.min()) > 30


def test_a_card_cut_by_a_shadow_band_on_a_light_table_is_found_by_the_last_look() -> None:
    # a card a little greyer than the table, as white cards on a white table photograph
    img = table((200, 202, 204))
    quad = card_quad(640, 330, 200, 8)
    draw_card(img, quad, paper=196, outline=190)
    img = shadowed(img, slice(400, 720), 0.6)
    without = find_cards(img, FindParams(flat_fallback=False))
    found = find_cards(img, PARAMS)
    assert not without  # the shadow's edges cut the card's faint outline
    card, err = best_match(found, quad)
    assert card is not None and err < 3.0, err


def test_a_card_whose_outline_shows_only_as_a_weaker_edge_is_found_by_the_fainter_look() -> None:
    # the card's paper and outline hardly darker than the table: the flattened frame's faint
    # edges at their own thresholds outline nothing, at half of them the card
    img = table((200, 202, 204))
    quad = card_quad(640, 330, 200, 8)
    draw_card(img, quad, paper=198, outline=194)
    img = shadowed(img, slice(400, 720), 0.6)
    assert not find_cards(img, FindParams(flat_faint_factor=1.0))
    card, err = best_match(find_cards(img, PARAMS), quad)
    assert card is not None and err < 3.0, err


def test_a_frame_with_cards_found_is_not_looked_at_again() -> None:
    img = table((40, 110, 30))
    quad = card_quad(640, 360, 180, 30)
    draw_card(img, quad)
    assert find_cards(img, PARAMS) == find_cards(img, FindParams(flat_fallback=False))


def test_an_empty_light_table_under_a_shadow_has_no_cards() -> None:
    img = shadowed(table((210, 212, 214)), slice(0, 400), 0.6)
    assert find_cards(img, PARAMS) == []


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("flat_close", 1.5),
        ("flat_blur", -0.1),
        ("flat_fallback", 1),
        ("flat_min_shade", 2.0),
        ("flat_faint_factor", 0.0),
        ("flat_faint_factor", 1.5),
        ("flat_weak_below", -0.1),
        ("flat_weak_below", 1.5),
    ],
)
def test_bad_flat_field_parameters_are_refused_naming_the_field(field: str, value: object) -> None:
    with pytest.raises(ValueError, match=field):
        FindParams(**{field: value})  # type: ignore[arg-type]


def test_an_evenly_lit_frame_is_not_looked_at_twice() -> None:
    even = table((205, 207, 209), gradient=0.05)
    shaded = shadowed(even, slice(0, 400), 0.6)
    assert flat_work(even, make_work(even, PARAMS), PARAMS) is None
    again = flat_work(shaded, make_work(shaded, PARAMS), PARAMS)
    assert again is not None and again.scale == make_work(shaded, PARAMS).scale
