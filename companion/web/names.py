"""Names a player sees, in the player's language: one function per kind of name.

Representation: the engine and the data files name things by id (``forest``,
``large-forest``, ``box1``, ``grain-tunnel``, ``Forest Ranger``, ``forest 7``,
``balloon-launch-site``); each function here turns one kind of id into words through
gettext (``lazy_gettext`` tables, so the words follow the request's locale). An id no
table knows is shown tidied (``some-id`` -> ``Some id``), never as a slug.
"""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

TERRAINS: dict[str, Any] = {
    "forest": _l("forest"), "grain": _l("grain"), "village": _l("village"),
    "track": _l("track"), "stream": _l("stream"), "meadow": _l("meadow"),
    "wraparound": _l("wraparound"), "double": _l("double"),
}
LETTERS = {"F": "forest", "G": "grain", "V": "village", "T": "track", "S": "stream",
           "M": "meadow"}

SPECIALS: dict[str, Any] = {
    "circus": _l("Circus"), "signalman": _l("Signalman"), "shepherdess": _l("Shepherdess"),
    "hill": _l("Hill"), "construction-site": _l("Construction Site"),
    "balloon-launch-site": _l("Balloon Launch Site"), "forest-cabin": _l("Forest Cabin"),
    "harvest-festival": _l("Harvest Festival"), "watchtower": _l("Watchtower"),
    "locomotive": _l("Locomotive"), "ship": _l("Ship"), "train-station": _l("Train Station"),
    "harbor": _l("Harbor"), "school": _l("School"), "granary": _l("Granary"),
    "old-oak": _l("Old Oak"), "photographer": _l("Photographer"),
    "great-mill": _l("Great Mill"), "golden-heart": _l("Golden Heart"),
    "red-hearts": _l("Red hearts"), "red-heart": _l("Red heart"),
    "hearts": _l("Hearts"), "heart": _l("Heart"), "camera": _l("Camera"),
}

ACHIEVEMENTS: dict[str, Any] = {
    "start": _l("Start"), "warehouse": _l("Warehouse"), "grain-tunnel": _l("Grain Tunnel"),
    "deer": _l("Deer"), "village-tunnel": _l("Village Tunnel"), "castle": _l("Castle"),
    "forest-tunnel": _l("Forest Tunnel"), "farm": _l("Farm"), "clouds": _l("Clouds"),
    "flag-festival": _l("Flag Festival"), "hearts-desire": _l("Heart's Desire"),
    "on-the-road-to-success": _l("On the Road to Success"),
}

TITLES: dict[str, Any] = {
    "Vagabond": _l("Vagabond"), "Newsboy": _l("Newsboy"), "Fisherwoman": _l("Fisherwoman"),
    "Coachman": _l("Coachman"), "Night Watchman": _l("Night Watchman"),
    "Actress": _l("Actress"), "Landlady": _l("Landlady"), "Forest Ranger": _l("Forest Ranger"),
    "Farmer's Wife": _l("Farmer's Wife"), "Engineer": _l("Engineer"),
    "Ringmaster": _l("Ringmaster"), "Captain": _l("Captain"),
    "Harbormaster": _l("Harbormaster"), "Station Master": _l("Station Master"),
    "Photographer": _l("Photographer"), "Merchant": _l("Merchant"),
    "Architect": _l("Architect"), "Inventor": _l("Inventor"), "Astronomer": _l("Astronomer"),
    "Doctor": _l("Doctor"), "Diplomat": _l("Diplomat"), "Balloonist": _l("Balloonist"),
    "Manufacturer": _l("Manufacturer"), "Mayor": _l("Mayor"), "Councilor": _l("Councilor"),
    "Magnate": _l("Magnate"), "Baroness": _l("Baroness"), "Crown Prince": _l("Crown Prince"),
    "Empress": _l("Empress"),
}


def tidy(ident: Any) -> str:
    """An unknown id in words: ``some-id`` -> ``Some id``."""
    text = str(ident).replace("-", " ").replace("_", " ").strip()
    return text[:1].upper() + text[1:]


def terrain_name(terrain: Any) -> str:
    """``forest`` (or its letter ``F``) in the player's language."""
    key = LETTERS.get(str(terrain), str(terrain))
    found = TERRAINS.get(key)
    return str(found) if found is not None else str(terrain)


def terrains_name(terrains: Any) -> str:
    """``forest+village`` (a double task) or ``forest/grain/village``."""
    text = str(terrains)
    for sep in ("+", "/"):
        if sep in text:
            return sep.join(terrain_name(t) for t in text.split(sep))
    return terrain_name(text)


def card_name(card: Any) -> str:
    """A Duel Module 1 card id (``large-forest``) as the card's name."""
    kind, _sep, terrain = str(card).partition("-")
    t = terrain_name(terrain)
    if kind == "large":
        return _("Large %(terrain)s", terrain=t)
    if kind == "master":
        from flask_babel import get_locale

        english = str(get_locale() or "en") == "en"
        return _("%(terrain)s Master", terrain=t[:1].upper() + t[1:] if english else t)
    if kind == "many":
        return _("Many %(terrain)s", terrain=t)
    return tidy(card)


def box_name(box: Any) -> str:
    """``box1`` (or ``1``) -> ``Box 1``."""
    text = str(box)
    number = text[3:] if text.startswith("box") else text
    if number.isdigit():
        return _("Box %(n)s", n=number)
    return tidy(text)


def special_name(special: Any) -> str:
    """A special tile or score row id (``balloon-launch-site``) as its name."""
    found = SPECIALS.get(str(special))
    return str(found) if found is not None else tidy(special)


def hex_name(hex_id: Any) -> str:
    """A hex of the campaign's advancement track (``box1``, ``grain-tunnel``)."""
    text = str(hex_id)
    if text.startswith("box") and text[3:].isdigit():
        return box_name(text)
    found = ACHIEVEMENTS.get(text) or SPECIALS.get(text)
    return str(found) if found is not None else tidy(text)


def path_name(path_id: Any) -> str:
    """A track path ``start-box1`` as ``Start – Box 1``."""
    from companion.rules import HEX_BY_ID

    text = str(path_id)
    for i in range(1, len(text)):
        if text[i] == "-" and text[:i] in HEX_BY_ID and text[i + 1:] in HEX_BY_ID:
            return f"{hex_name(text[:i])} – {hex_name(text[i + 1:])}"
    return hex_name(text)


def unlock_name(unlock_id: Any) -> str:
    """An unlock id: a box, an achievement, ``red-heart`` or a tile section
    (``box-1-task`` -> the task tiles of Box 1)."""
    text = str(unlock_id)
    if text.startswith("box-") and text.count("-") == 2:
        _b, number, kind = text.split("-")
        if kind == "task":
            return _("the task tiles of Box %(n)s", n=number)
        return _("the landscape tiles of Box %(n)s", n=number)
    return hex_name(text)


def title_name(title: Any) -> str:
    """A campaign title (``Forest Ranger``)."""
    found = TITLES.get(str(title))
    return str(found) if found is not None else str(title)


def pool_name(pool: Any) -> str:
    """A marker pool ``forest 7`` (terrain and value) in words."""
    terrain, _sep, value = str(pool).partition(" ")
    if value:
        return _("%(terrain)s %(value)s", terrain=terrain_name(terrain), value=value)
    return terrain_name(terrain)


def task_name(task: Any) -> str:
    """A task marker ``forest/5`` or ``double:forest+grain/6``."""
    text = str(task)
    head, sep, value = text.rpartition("/")
    if not sep:
        return terrains_name(text)
    if head.startswith("double:"):
        return f"{terrain_name('double')}:{terrains_name(head[7:])}/{value}"
    return f"{terrains_name(head)}/{value}"


PIECES: dict[str, Any] = {
    "red heart": _l("red heart"), "golden heart": _l("golden heart"),
    "balloon": _l("balloon"), "camera": _l("camera"), "sheep": _l("sheep"),
    "great mill": _l("Great Mill figure"), "mill figure": _l("Great Mill figure"),
}


def piece_name(piece: Any) -> str:
    """A wooden piece or token of the box (``red heart``)."""
    found = PIECES.get(str(piece).replace("-", " ").lower())
    return str(found) if found is not None else tidy(piece)


def player_name(who: Any) -> str:
    """A player's name as typed (never translated)."""
    return str(who)


__all__ = ["box_name", "card_name", "hex_name", "path_name", "piece_name", "player_name",
           "pool_name",
           "special_name", "task_name", "terrain_name", "terrains_name", "tidy", "title_name",
           "unlock_name"]
