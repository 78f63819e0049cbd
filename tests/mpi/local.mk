# placeholder until the MPI tests land
