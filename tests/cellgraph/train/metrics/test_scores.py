"""auc, BleuScore, CosineSimilarity, Dice, Perplexity, OcclusionSensitivity and the multilabel
forms of Precision, Recall and TopK: values recorded from MindSpore 2.10."""
import numpy as np
import pytest

from cellgraph import Tensor, nn, train


def test_auc():
    x, y = np.array([0, 0.1, 0.35, 0.6, 1.0]), np.array([0, 0.5, 0.6, 0.9, 1.0])
    assert train.auc(x, y) == pytest.approx(0.73)
    assert train.auc(x[::-1].copy(), y[::-1].copy()) == pytest.approx(0.73)  # falling x
    assert train.auc(np.array([0.5, 0.1, 1.0, 0.0]), np.array([0.7, 0.2, 1.0, 0.0]),
                     reorder=True) == pytest.approx(0.615)
    with pytest.raises(ValueError, match="increasing or decreasing"):
        train.auc(np.array([0.5, 0.1, 1.0]), np.array([0.7, 0.2, 1.0]))
    with pytest.raises(TypeError, match="np.ndarray"):
        train.auc([0, 1], [0, 1])


CANDIDATES = [["the", "cat", "sat", "on", "the", "mat"], ["a", "dog", "ran"]]
REFERENCES = [[["the", "cat", "is", "on", "the", "mat"],
               ["there", "is", "a", "cat", "on", "the", "mat"]], [["a", "dog", "ran", "away"]]]
BLEU = {(1, False): 0.7954127260572175, (1, True): 0.8053553851329327,
        (2, False): 0.7130250348091853, (2, True): 0.7351855187426133,
        (3, False): 0.5666804132851402, (3, True): 0.6230214271204899}


@pytest.mark.parametrize(("n_gram", "smooth"), sorted(BLEU))
def test_bleu_score(n_gram, smooth):
    bleu = train.BleuScore(n_gram=n_gram, smooth=smooth)
    bleu.update(CANDIDATES, REFERENCES)
    assert float(bleu.eval()) == pytest.approx(BLEU[n_gram, smooth])


def test_bleu_score_checks():
    with pytest.raises(TypeError):
        train.BleuScore(n_gram=True)
    with pytest.raises(ValueError, match="range from 1 to 4"):
        train.BleuScore(n_gram=5)
    with pytest.raises(RuntimeError, match="update"):
        train.BleuScore().eval()


def test_cosine_similarity():
    rows = np.random.RandomState(2).randn(4, 3)
    metric = train.CosineSimilarity()
    metric.update(rows)
    unit = rows / np.linalg.norm(rows, axis=1, keepdims=True)
    expected = unit @ unit.T
    np.fill_diagonal(expected, 0)
    np.testing.assert_allclose(metric.eval(), expected)
    dot = train.CosineSimilarity("dot", "sum", zero_diagonal=False)
    dot.update(rows)
    np.testing.assert_allclose(dot.eval(), (rows @ rows.T).sum(-1))
    with pytest.raises(TypeError, match="zero_diagonal"):
        train.CosineSimilarity(zero_diagonal=1)


def test_dice_and_perplexity():
    dice = train.Dice()
    dice.update(Tensor(np.array([[1.0, 0, 1], [0, 1, 1]])), Tensor(np.array([[1.0, 1, 0], [0, 1, 1]])))
    # 2 * 3 / (4 + 4 + 1e-5) over 2 samples
    assert dice.eval() == pytest.approx(2 * 3 / (8 + 1e-5) / 2)
    with pytest.raises(TypeError, match="smooth"):
        train.Dice(1)
    probs = np.array([[0.1, 0.2, 0.3, 0.4], [0.5, 0.1, 0.1, 0.3], [0.25, 0.25, 0.25, 0.25]])
    labels = np.array([3, 0, 1])
    ppl = train.Perplexity()
    ppl.update(Tensor(probs), Tensor(labels))
    assert ppl.eval() == pytest.approx(np.exp(-np.log([0.4, 0.5, 0.25]).mean()))
    ignoring = train.Perplexity(ignore_label=1)
    ignoring.update(probs, labels)
    assert ignoring.eval() == pytest.approx(np.exp(-np.log([0.4, 0.5]).mean()))
    with pytest.raises(TypeError, match="ignore_label"):
        train.Perplexity(ignore_label=1.0)


class _Flatten(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(12, 3, weight_init="ones", bias_init="zeros")

    def construct(self, x):
        return self.dense(x.reshape(x.shape[0], -1))


def test_occlusion_sensitivity():
    image = np.arange(12, dtype=np.float32).reshape(1, 3, 4) / 12
    metric = train.OcclusionSensitivity(margin=1, n_batch=5)
    metric.update(_Flatten(), Tensor(image), Tensor(np.array(1)))
    # every output is the sum of the pixels: the drop is the sum of the covered ones
    expected = np.zeros((3, 4), np.float32)
    for row in range(3):
        for col in range(4):
            expected[row, col] = image[0, max(0, row - 1):row + 1, max(0, col - 1):col + 1].sum()
    np.testing.assert_allclose(metric.eval(), expected, rtol=1e-5, atol=1e-6)
    boxed = train.OcclusionSensitivity(b_box=[1, 2, -1, -1])
    boxed.update(_Flatten(), Tensor(image), Tensor(np.array(1)))
    assert boxed.eval().shape == (2, 4)
    with pytest.raises(TypeError, match="pad_val"):
        train.OcclusionSensitivity(pad_val=0)


def test_multilabel_precision_recall_are_per_sample():
    x = np.array([[0, 1, 0, 1], [1, 0, 1, 1], [0, 0, 0, 1]])
    y = np.array([[0, 1, 1, 1], [0, 1, 1, 1], [0, 0, 0, 1]])
    for metric_type, values, average in ((train.Precision, [1, 2 / 3, 1, 0.5], 0.7916666667),
                                         (train.Recall, [2 / 3, 2 / 3, 1, 1], 0.8333333333)):
        metric = metric_type("multilabel")
        metric.update(x, y)
        metric.update(x[:1], y[2:])  # updates concatenate
        np.testing.assert_allclose(metric.eval(), values, atol=1e-9)
        assert metric.eval(True) == pytest.approx(average)
    with pytest.raises(ValueError):
        train.Accuracy("multilabel").update(x, y[:, :3])


def test_topk_one_hot_labels_and_k_type():
    scores = np.array([[0.15, 0.4, 0.1, 0.05, 0.0, 0.2, 0.1], [0.1, 0.35, 0.25, 0.2, 0.1, 0.0, 0.0],
                       [0.0, 0.5, 0.2, 0.1, 0.1, 0.1, 0.0]])
    top5 = train.Top5CategoricalAccuracy()
    top5.update(scores, np.eye(5)[[2, 0, 0]])  # one-hot rows narrower than the scores
    assert top5.eval() == pytest.approx(2 / 3)
    with pytest.raises(TypeError):
        train.TopKCategoricalAccuracy(2.1)
