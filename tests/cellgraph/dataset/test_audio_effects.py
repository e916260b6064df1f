"""Flanger and Phaser of dataset.audio against values recorded from MindSpore 2.10."""
import numpy as np
import pytest

from cellgraph.dataset.audio import (  # noqa: F401 (the names the cases spell)
    Flanger,
    Interpolation,
    Modulation,
    Phaser,
)

X = (np.sin(np.arange(24) * 0.7).reshape(2, 12) * 0.8).astype(np.float32)

CASES = {
    'Flanger(200)':
        [[0.0, 0.5153741, 0.7883598, 0.6905675, 0.2679905, -0.2806266, -0.6972606, -0.785962, -0.5050132, 0.0134511, 0.5255892, 0.7905346], [0.683679, 0.2552786, -0.2931833, -0.7037566, -0.7833421, -0.4945097, 0.0268984, 0.5356557, 0.7924858, 0.6765974, 0.2424947, -0.3056571]],
    'Flanger(150, 5.0, 4.0, 30.0, 50.0, 2.0, 40.0, Modulation.TRIANGULAR, Interpolation.QUADRATIC)':
        [[0.0, 0.3435827, 0.6458272, 0.644329, 0.375869, -0.0693681, -0.4711574, -0.651354, -0.5219617, -0.1470828, 0.2979456, 0.6028455], [0.4557861, 0.3297109, -0.1358905, -0.489723, -0.6685685, -0.5186186, -0.1413554, 0.3066966, 0.605524, 0.6208562, 0.3426959, -0.096252]],
    'Phaser(1000)':
        [[0.0, 0.1525507, 0.2943748, 0.3221579, 0.2081884, 0.0002099, -0.2063052, -0.3151669, -0.2755507, -0.1062387, 0.1130789, 0.2792298], [0.202369, 0.1565101, -0.0241782, -0.2179833, -0.3190626, -0.2739999, -0.101638, 0.1178989, 0.2817354, 0.312967, 0.1969652, -0.0116884]],
    'Phaser(2000, 0.6, 0.9, 4.0, 0.5, 1.5, False)':
        [[0.0, 0.278302, 0.5648653, 0.6553391, 0.4723844, 0.0846538, -0.3341938, -0.5915164, -0.5684654, -0.2769691, 0.1453336, 0.4995555], [0.3691867, 0.3224438, 0.0029029, -0.3785771, -0.6122934, -0.5731819, -0.2720658, 0.1532212, 0.504553, 0.6176391, 0.4397667, 0.0548285]],
}


@pytest.mark.parametrize("spec", list(CASES))
def test_effect_matches_mindspore(spec):
    out = eval(spec)(X)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, np.array(CASES[spec]), rtol=1e-6, atol=1e-7)


def test_flanger_keeps_integer_and_double_types():
    assert Flanger(200)((X * 4).astype(np.int32)).dtype == np.int32
    assert Flanger(200)(X.astype(np.float64)).dtype == np.float64
    assert Phaser(200)(np.arange(6)).dtype == np.float32


def test_errors_match_mindspore():
    with pytest.raises(RuntimeError, match="Flanger: the channel of input tensor does not match "
                                           "the requirement of operator. Expecting tensor with "
                                           "channel less than or equal to 4. But got channel: 5"):
        Flanger(200)(np.zeros((5, 8), np.float32))
    with pytest.raises(ValueError, match=r"Input delay is not within the required interval of "
                                         r"\[0, 30\]."):
        Flanger(200, delay=31)
    with pytest.raises(ValueError, match=r"Input mod_speed is not within the required interval "
                                         r"of \[0.1, 2\]."):
        Phaser(200, mod_speed=3)
