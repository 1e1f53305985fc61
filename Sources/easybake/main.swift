print("easybake")
