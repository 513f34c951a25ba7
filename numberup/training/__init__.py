"""Training the learned evaluation: self-play Monte Carlo training and the distillation of the look
at the next card."""
