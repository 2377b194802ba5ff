//! MECHCOM, Skirmishers and Shellshock against their rulebooks: each contradiction fixed.
