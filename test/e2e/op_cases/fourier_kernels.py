"""fourier_kernels.py - generated end-to-end cases for the runtime kernels
of the transforms to a real signal (runtime/lib/kernels/FourierKernels.cpp):
irfft, irfft2, irfftn, hfft, hfft2 and hfftn of real input, with their
default sizes, given sizes that pad and that trim, chosen dims and every
norm; in float32 and float64, and with integer inputs, which transform in
float32 as torch's do. (The errors are FourierKernelsTest's.)"""

import torch

from op_case import Case

torch.manual_seed(0)


def one_dim(x):
    f = torch.fft
    return f.irfft(x), f.irfft(x, n=7), f.irfft(x, n=3, dim=0), \
        f.irfft(x, norm="ortho"), f.irfft(x, norm="forward"), \
        f.hfft(x), f.hfft(x, n=9, norm="ortho"), f.hfft(x, dim=0, norm="forward")


def two_dims(x):
    f = torch.fft
    return f.irfft2(x), f.irfft2(x, s=(4, 6)), f.irfft2(x, dim=(0, 2)), \
        f.hfft2(x, norm="backward"), f.hfft2(x, s=(2, 5), norm="ortho")


def n_dims(x):
    f = torch.fft
    return f.irfftn(x), f.irfftn(x, s=(3, 4)), f.irfftn(x, dim=(1,)), \
        f.hfftn(x, norm="forward"), f.hfftn(x, s=(5, -1), dim=(0, 2))


CASES = [
    Case(one_dim, [torch.randn(5, 6)], op="fft_irfft"),
    Case(one_dim, [torch.randn(4, 3, dtype=torch.float64)], op="fft_hfft",
         name="one_dim_float64"),
    Case(one_dim, [torch.randint(-5, 5, (3, 4))], op="fft_irfft",
         name="one_dim_int"),
    Case(two_dims, [torch.randn(3, 4, 5)], op="fft_irfft2"),
    Case(n_dims, [torch.randn(2, 3, 4)], op="fft_irfftn"),
]
