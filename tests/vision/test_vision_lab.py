"""The photo's Lab conversion kept while the tiles are located (``vision/lab.py``)."""

from __future__ import annotations

import threading

import cv2
import numpy as np

from companion.vision import lab, lattice


def _image(seed: int = 3) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return cv2.GaussianBlur(rng.integers(0, 256, (90, 120, 3), np.uint8), (0, 0), 1.5)


def test_inside_a_block_the_same_array_is_converted_once_and_read_only() -> None:
    image = _image()
    with lab.keeping(image):
        first = lab.lab_of(image)
        assert lab.lab_of(image) is first
        assert not first.flags.writeable
        assert np.array_equal(first, cv2.cvtColor(image, cv2.COLOR_BGR2Lab))
        # a copy is another array: converted anew, not kept
        other = lab.lab_of(image.copy())
        assert other is not first and other.flags.writeable


def test_outside_a_block_nothing_is_kept_and_a_changed_image_is_read_fresh() -> None:
    image = _image()
    with lab.keeping(image):
        kept = lab.lab_of(image)
    assert lab.lab_of(image) is not kept
    image[:10] = (0, 0, 255)
    with lab.keeping(image):
        assert np.array_equal(lab.lab_of(image), cv2.cvtColor(image, cv2.COLOR_BGR2Lab))


def test_a_crop_of_the_kept_conversion_equals_the_crop_converted() -> None:
    image = _image(5)
    with lab.keeping(image):
        crop = lab.lab_of(image)[20:70, 30:100]
    assert np.array_equal(crop, cv2.cvtColor(image[20:70, 30:100], cv2.COLOR_BGR2Lab))
    light = lab.lightness_of(image)
    assert light.dtype == np.float32 and light.flags.writeable


def test_nested_blocks_share_and_the_outer_one_ends_it() -> None:
    image = _image()
    with lab.keeping(image):
        with lab.keeping(image):
            inner = lab.lab_of(image)
        assert lab.lab_of(image) is inner
    assert lab.lab_of(image) is not inner


def test_two_threads_keep_their_own_images() -> None:
    images = [_image(1), _image(2)]
    got: dict[int, bool] = {}

    def work(i: int) -> None:
        with lab.keeping(images[i]):
            a = lab.lab_of(images[i])
            got[i] = lab.lab_of(images[i]) is a and np.array_equal(
                a, cv2.cvtColor(images[i], cv2.COLOR_BGR2Lab))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == {0: True, 1: True}


def test_the_view_keeps_the_boundary_map_beyond_the_silhouette() -> None:
    image = _image(7)
    mask = np.zeros(image.shape[:2], np.uint8)
    mask[20:70, 30:90] = 255
    with lab.keeping(image):
        view = lattice.map_view(image, mask, 12.0)
    assert np.array_equal(view.grad, lattice.boundary_map(image, mask, 12.0))
    assert np.array_equal(view.beyond, lattice.boundary_map(image, mask, 12.0, outside=True))
    assert np.any(view.beyond != view.grad)
