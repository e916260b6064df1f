"""A neural energy model for a Lennard-Jones cluster, fitted on energies and forces.

Machine-learned force fields predict a potential energy E(x) and take the forces as
F = -dE/dx, which makes the forces conservative by construction. Fitting them to reference
forces puts that derivative inside the loss, so training differentiates a gradient: the
training graph holds a `grad` node (dE/dx) that TrainOneStepCell differentiates again with
respect to the weights.

The system is four atoms in 3-D (reduced units, epsilon = sigma = 1) near their tetrahedral
minimum, with reference energies and forces from the Lennard-Jones formula in NumPy. The model
is a sum over atom pairs of one small MLP of the pair distance, invariant under rotations,
translations and relabelling of the atoms. With matplotlib installed the loss curve goes to
md_forces_loss.png.
"""
import numpy as np

import cellgraph as ms
from cellgraph import Tensor, nn, ops

from _common import Progress, save_curve

ATOMS = 4
PAIRS = np.triu_indices(ATOMS, k=1)  # (i, j) with i < j: 6 pairs


def lennard_jones(positions):
    """Reference energies (B,) and forces (B, ATOMS, 3): E = sum 4 (r^-12 - r^-6)."""
    i, j = PAIRS
    delta = positions[:, i] - positions[:, j]  # (B, pairs, 3)
    r = np.linalg.norm(delta, axis=-1)
    inv6 = r ** -6
    energy = (4 * (inv6 * inv6 - inv6)).sum(axis=1)
    de_dr = (-48 * inv6 * inv6 + 24 * inv6) / r  # dE/dr for each pair
    pair_force = -(de_dr / r)[..., None] * delta  # the force on atom i from atom j
    forces = np.zeros_like(positions)
    np.add.at(forces, (slice(None), i), pair_force)
    np.add.at(forces, (slice(None), j), -pair_force)
    return energy, forces


def random_configurations(count, rng, noise=0.12, closest=0.95):
    """Tetrahedra with side 2^(1/6) (the minimum) plus Gaussian noise, no pair closer than
    `closest`."""
    corners = np.array([[1, 1, 1], [1, -1, -1], [-1, 1, -1], [-1, -1, 1]], np.float64)
    tetrahedron = corners * 2 ** (1 / 6) / np.sqrt(8)  # the corners are sqrt(8) apart
    out = []
    while len(out) < count:
        x = tetrahedron + rng.normal(scale=noise, size=tetrahedron.shape)
        if np.linalg.norm(x[PAIRS[0]] - x[PAIRS[1]], axis=-1).min() > closest:
            out.append(x)
    return np.array(out)


class PairEnergy(nn.Cell):
    """E(x) = sum over pairs of phi(|x_i - x_j|), phi a tanh MLP; one energy per configuration."""

    def __init__(self, width=32):
        super().__init__()
        self.first = Tensor(PAIRS[0].astype(np.int32))
        self.second = Tensor(PAIRS[1].astype(np.int32))
        self.phi = nn.SequentialCell([
            nn.Dense(1, width, activation="tanh"),
            nn.Dense(width, width, activation="tanh"),
            nn.Dense(width, 1),
        ])

    def construct(self, positions):  # (B, ATOMS, 3)
        delta = ops.gather(positions, self.first, 1) - ops.gather(positions, self.second, 1)
        r = ops.sqrt(ops.sum(delta * delta, -1, keepdim=True))  # (B, pairs, 1)
        return ops.reduce_sum(self.phi(r), (1, 2))  # (B,)


class EnergyForceLoss(nn.Cell):
    """mean squared energy error + force_weight * mean squared force error."""

    def __init__(self, energy, force_weight=1.0):
        super().__init__()
        self.energy = energy
        # The configurations' energies are independent, so the gradient of their sum gives
        # each configuration's own dE/dx.
        self.energy_grad = ops.grad(energy)
        self.force_weight = force_weight

    def construct(self, positions, energies, forces):
        energy_error = self.energy(positions) - energies
        force_error = -self.energy_grad(positions) - forces
        return ops.reduce_mean(energy_error * energy_error) + \
            self.force_weight * ops.reduce_mean(force_error * force_error)


def errors(energy, energy_grad, positions, energies, forces):
    """(energy MAE, force RMSE relative to the RMS reference force) of the model."""
    predicted = energy(Tensor(positions)).asnumpy()
    predicted_forces = -energy_grad(Tensor(positions)).asnumpy()
    force_rmse = np.sqrt(np.mean((predicted_forces - forces) ** 2))
    return float(np.abs(predicted - energies).mean()), float(force_rmse / np.sqrt(
        np.mean(forces ** 2)))


def main(train_configs=512, test_configs=256, epochs=300, batch_size=32, width=32,
         learning_rate=1e-2, seed=0, plot="md_forces_loss.png", verbose=True):
    """Train; return {"force_errors", "energy_errors", "losses", "seconds", "plot"} (test-set
    errors, the first before training)."""
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(seed)
    rng = np.random.default_rng(seed)
    x_train = random_configurations(train_configs, rng)
    x_test = random_configurations(test_configs, rng)
    e_train, f_train = lennard_jones(x_train)
    e_test, f_test = lennard_jones(x_test)
    as_f32 = [a.astype(np.float32) for a in (x_train, e_train, f_train, x_test)]
    x_train, e_train, f_train, x_test = as_f32

    energy = PairEnergy(width)
    batches = train_configs // batch_size
    schedule = nn.CosineDecayLR(learning_rate / 100, learning_rate, epochs * batches)
    train_step = nn.TrainOneStepCell(EnergyForceLoss(energy),
                                     nn.Adam(energy.trainable_params(), schedule))

    energy_grad = ms.grad(energy)  # for the test-set forces, compiled once
    energy_error, force_error = errors(energy, energy_grad, x_test, e_test, f_test)
    energy_errors, force_errors, losses = [energy_error], [force_error], []
    progress = Progress(epochs, verbose=verbose)
    report_every = max(epochs // 10, 1)
    for epoch in range(1, epochs + 1):
        order = rng.permutation(train_configs)
        total = 0.0
        for b in range(batches):
            idx = order[b * batch_size:(b + 1) * batch_size]
            total += float(train_step(Tensor(x_train[idx]), Tensor(e_train[idx]),
                                      Tensor(f_train[idx])).asnumpy())
        losses.append(total / batches)
        if epoch % report_every == 0 or epoch == epochs:
            energy_error, force_error = errors(energy, energy_grad, x_test, e_test, f_test)
            energy_errors.append(energy_error)
            force_errors.append(force_error)
            progress.report(epoch, loss=losses[-1], energy_mae=energy_error,
                            relative_force_rmse=force_error)

    written = save_curve(plot, {"train loss": losses}, "epoch",
                         "Lennard-Jones fit on energies and forces") if plot else None
    if verbose:
        print(f"test set: relative force RMSE {force_errors[0]:.3f} -> {force_errors[-1]:.4f}, "
              f"energy MAE {energy_errors[0]:.3f} -> {energy_errors[-1]:.4f} epsilon"
              + (f"; loss curve in {written}" if written else ""))
    return {"force_errors": force_errors, "energy_errors": energy_errors, "losses": losses,
            "seconds": progress.seconds, "plot": written}


if __name__ == "__main__":
    main()
