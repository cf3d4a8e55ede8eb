// Module Simulation.
